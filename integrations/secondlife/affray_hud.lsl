// affray in-world HuD: plays one seat of an affray table (docs/secondlife.md; the protocol: docs/table.md,
// "The in-world protocol"). One self-contained script in the root prim; five child prims named Chance, Attack,
// Defense, Damage and Injury are the dice buttons. The server's address: the object's description, or
// "/5 server https://..." (https: the seat's token travels with every request).
//
// Owner commands on channel 5: join CODE, server URL, leave, status, mod DIE N (a free roll's modifier, in place
// of the character's the server gives; mod DIE off goes back to the server's), menu.
// The routes: /api/hud/claim, /api/hud/TABLE (the long poll), /api/hud/TABLE/act (the server's /api/inworld/ ones
// under the name this HuD speaks), and the table's free-roll route /api/tables/TABLE/roll.
// Good citizenship: at most one request in flight besides the long poll, at least a second between requests,
// backing off on 499, 5xx and a throttled request (NULL_KEY); a dialog listener on a random channel, owner only,
// removed after an answer or 60 s; a watchdog timer that re-polls; a new poll after a region change, a teleport
// or a re-attach.

integer CMD_CHANNEL = 5;
float GAP = 1.0;            // seconds between two requests
float DIALOG_LIFE = 60.0;   // seconds a dialog listener lives
float POLL_WAIT = 25.0;     // the server's long poll, at most 25 s
float POLL_STALE = 45.0;    // a poll with no answer this long is dropped (a region change lost it)

string gServer = "";
string gToken = "";
string gTable = "";
integer gVersion = 0;
integer gL = 0;             // the story's cursors the server hands back
integer gC = 0;
string gAt = "";            // the step and page the dialog shows
string gChoices = "[]";     // the answer's "ch": [[id, label(, "t")], ...]
string gDice = "{}";        // the answer's "d": {die: choice id}
string gAsk = "";
integer gFree = 0;          // a free-form scene: the dice buttons roll free rolls
string gFreeDice = "{}";    // the answer's "fd": {die: notation}, each die with the character's modifier
list gMods = [];            // free rolls' modifiers the owner set in place of the server's: [die, n, ...]
string gName = "";
integer gOver = 0;          // the fight is over: said once, and no more polls
integer gFresh = 1;         // the next poll answers at once (after a join, a region change, a failure)

key gPoll = NULL_KEY;       // the long poll in flight
float gPollAt = 0.0;
key gReq = NULL_KEY;        // the one other request in flight
integer gReqKind = 0;       // 1 claim, 2 act, 3 read (a page), 4 roll
float gLastSent = -10.0;
list gQueued = [];          // one waiting request: [kind, method, path, body]
float gBackoff = 0.0;       // seconds to wait after a failure (doubles, at most 60)
float gResumeAt = 0.0;

integer gDialogChan = 0;
integer gDialogListen = 0;
float gDialogAt = 0.0;
string gTextChoice = "";    // a choice waiting for the owner's words

say_owner(string text) {
    llOwnerSay(llGetSubString(text, 0, 1000));
}

hover(string text) {
    // at most 254 bytes: the server cuts, this keeps an idle line short
    llSetText(text, <1.0, 1.0, 1.0>, 1.0);
}

list headers() {
    return [HTTP_CUSTOM_HEADER, "Authorization", "Bearer " + gToken];
}

// The one request besides the poll: sent now if the slot is free and a second has passed, else kept (one slot,
// the latest wins) for the timer to send.
request(integer kind, string method, string path, string body) {
    if (gReq != NULL_KEY || llGetTime() - gLastSent < GAP || llGetTime() < gResumeAt) {
        gQueued = [kind, method, path, body];
        return;
    }
    gQueued = [];
    string mime = "text/plain;charset=utf-8";  // the in-world routes read it as JSON
    if (kind == 4) mime = "application/json";  // the table's free-roll route wants JSON by name
    list options = [HTTP_METHOD, method, HTTP_MIMETYPE, mime];
    if (gToken != "") options += headers();
    gLastSent = llGetTime();
    gReq = llHTTPRequest(gServer + path, options, body);
    gReqKind = kind;
    if (gReq == NULL_KEY) {
        failed(0);
        gQueued = [kind, method, path, body];
    }
}

poll() {
    if (gToken == "" || gServer == "" || gOver || gPoll != NULL_KEY || llGetTime() < gResumeAt) return;
    if (llGetTime() - gLastSent < GAP) return;  // the timer comes back
    gLastSent = llGetTime();
    gPollAt = llGetTime();
    integer wait = (integer)POLL_WAIT;
    if (gFresh) wait = 0;
    gPoll = llHTTPRequest(gServer + "/api/hud/" + gTable + "?l=" + (string)gL + "&c=" + (string)gC
        + "&wait=" + (string)wait + "&at=" + llEscapeURL(gAt), [HTTP_METHOD, "GET"] + headers(), "");
    if (gPoll == NULL_KEY) failed(0);
}

failed(integer status) {
    gFresh = 1;
    if (gBackoff < 2.0) gBackoff = 2.0;
    else gBackoff = gBackoff * 2.0;
    if (gBackoff > 60.0) gBackoff = 60.0;
    gResumeAt = llGetTime() + gBackoff;
}

// A new answer (the poll's or a page's): hover text, story lines, the dialog when it changed.
take(string body) {
    string v = llJsonGetValue(body, ["v"]);
    if (v == JSON_INVALID) return;
    gVersion = (integer)v;
    gName = llJsonGetValue(body, ["n"]);
    gFree = llJsonGetValue(body, ["ff"]) == "1";
    gFreeDice = llJsonGetValue(body, ["fd"]);
    if (gFreeDice == JSON_INVALID) gFreeDice = "{}";
    hover(llJsonGetValue(body, ["t"]));
    // The story's lines, only from this HuD's own cursors: a second answer to the same cursors (a page read while
    // the poll was out) says nothing again.
    integer story = TRUE;
    string start = llJsonGetValue(body, ["from"]);
    if (start != JSON_INVALID) {
        list cursors = llJson2List(start);
        story = llList2Integer(cursors, 0) == gL && llList2Integer(cursors, 1) == gC;
    }
    if (story) {
        gL = (integer)llJsonGetValue(body, ["l"]);
        gC = (integer)llJsonGetValue(body, ["c"]);
    }
    string said = llJsonGetValue(body, ["say"]);
    if (said != JSON_INVALID && story) {
        list lines = llJson2List(said);
        string own = llGetObjectName();
        llSetObjectName(gName);  // said under the character's name
        integer i;
        for (i = 0; i < llGetListLength(lines); i = i + 1) llSay(0, llList2String(lines, i));
        llSetObjectName(own);
    }
    string private = llJsonGetValue(body, ["own"]);
    if (private != JSON_INVALID && story) {
        list lines = llJson2List(private);
        integer i;
        for (i = 0; i < llGetListLength(lines); i = i + 1) say_owner(llList2String(lines, i));
    }
    string over = llJsonGetValue(body, ["over"]);
    if (over != JSON_INVALID) {
        if (!gOver) say_owner("The fight is over: " + over);
        gOver = 1;
        gChoices = "[]";
        gDice = "{}";
        return;
    }
    string choices = llJsonGetValue(body, ["ch"]);
    if (choices == JSON_INVALID) choices = "[]";
    string ask = llJsonGetValue(body, ["ask"]);
    string dice = llJsonGetValue(body, ["d"]);
    if (dice == JSON_INVALID) dice = "{}";
    gDice = dice;
    if (choices != gChoices || ask != gAsk) {
        gChoices = choices;
        gAsk = ask;
        if (choices != "[]") dialog();
    }
}

dialog() {
    // each choice read as its own small array: [id, label(, "t")] (one level of JSON at a time)
    list choices = llJson2List(gChoices);
    list buttons = [];
    integer i;
    for (i = 0; i < llGetListLength(choices); i = i + 1)
        buttons += [llList2String(llJson2List(llList2String(choices, i)), 1)];
    if (buttons == []) return;
    listen_dialog();
    string ask = gAsk;
    if (ask == "" || ask == JSON_INVALID) ask = "Your move";
    llDialog(llGetOwner(), ask, buttons, gDialogChan);
}

listen_dialog() {
    if (gDialogListen) llListenRemove(gDialogListen);
    gDialogChan = -1000000 - (integer)llFrand(1000000000.0);
    gDialogListen = llListen(gDialogChan, "", llGetOwner(), "");
    gDialogAt = llGetTime();
}

close_dialog() {
    if (gDialogListen) llListenRemove(gDialogListen);
    gDialogListen = 0;
}

act(string choice, string text) {
    list fields = ["choice", choice, "version", gVersion,
        "id", "h" + (string)gVersion + "-" + choice + "-" + (string)llGetUnixTime()];
    if (text != "") fields += ["text", text];
    string body = llList2Json(JSON_OBJECT, fields);
    request(2, "POST", "/api/hud/" + gTable + "/act", body);
}

chosen(string label) {
    list choices = llJson2List(gChoices);
    integer i;
    for (i = 0; i < llGetListLength(choices); i = i + 1) {
        list choice = llJson2List(llList2String(choices, i));
        if (llList2String(choice, 1) == label) {
            string id = llList2String(choice, 0);
            if (llGetSubString(id, 0, 0) == "@") {
                gAt = llGetSubString(id, 1, -1);
                request(3, "GET", "/api/hud/" + gTable + "?l=" + (string)gL + "&c=" + (string)gC + "&at="
                    + llEscapeURL(gAt), "");
                return;
            }
            if (llList2String(choice, 2) == "t") {
                gTextChoice = id;
                listen_dialog();
                llTextBox(llGetOwner(), "Your words for: " + llGetSubString(label, 0, 200), gDialogChan);
                return;
            }
            gAt = "";
            act(id, "");
            return;
        }
    }
}

die_button(string name) {
    string die = llToLower(name);
    if (gToken == "") { say_owner("Join a seat first: /5 join CODE"); return; }
    if (gFree) {
        // the server's roll for this die, with the character's modifier, unless the owner set one (/5 mod)
        string notation = llJsonGetValue(gFreeDice, [die]);
        integer at = llListFindList(gMods, [die]);
        if (at >= 0 || notation == JSON_INVALID) {
            integer sides = 13;
            if (die == "chance") sides = 11;
            integer mod = 0;
            if (at >= 0) mod = llList2Integer(gMods, at + 1);
            notation = "1d" + (string)sides;
            if (mod > 0) notation += "+" + (string)mod;
            if (mod < 0) notation += (string)mod;
        }
        request(4, "POST", "/api/tables/" + gTable + "/roll", llList2Json(JSON_OBJECT, ["notation", notation, "to", JSON_NULL]));
        return;
    }
    string id = llJsonGetValue(gDice, [die]);
    if (id == JSON_INVALID) { say_owner("No " + name + " roll is yours to make now."); return; }
    gAt = "";
    act(id, "");
}

command(string text) {
    list words = llParseString2List(text, [" "], []);
    string verb = llToLower(llList2String(words, 0));
    string arg = llList2String(words, 1);
    if (verb == "join" && arg != "") {
        if (gServer == "") { say_owner("Set the server first: /5 server https://..."); return; }
        gToken = "";
        request(1, "POST", "/api/hud/claim", llList2Json(JSON_OBJECT, ["code", arg]));
    } else if (verb == "server" && arg != "") {
        gServer = arg;
        if (llGetSubString(gServer, -1, -1) == "/") gServer = llGetSubString(gServer, 0, -2);
        say_owner("Server: " + gServer);
    } else if (verb == "leave") {
        gToken = ""; gTable = ""; gPoll = NULL_KEY; gChoices = "[]"; gDice = "{}"; gFreeDice = "{}"; gAt = "";
        gOver = 0;
        close_dialog();
        hover("affray: /5 join CODE");
        say_owner("Left the seat.");
    } else if (verb == "status") {
        string seat = "no seat";
        if (gToken != "") seat = "table " + gTable + " as " + gName + ", version " + (string)gVersion;
        say_owner("Server " + gServer + "; " + seat + "; free memory " + (string)llGetFreeMemory());
    } else if (verb == "mod" && llGetListLength(words) == 3) {
        string die = llToLower(arg);
        integer at = llListFindList(gMods, [die]);
        if (at >= 0) gMods = llDeleteSubList(gMods, at, at + 1);
        if (llToLower(llList2String(words, 2)) != "off") gMods += [die, (integer)llList2String(words, 2)];
        say_owner("Free roll modifiers set here (the server's for the others): " + llDumpList2String(gMods, " "));
    } else if (verb == "menu") {
        dialog();
    } else {
        say_owner("Commands on /5: join CODE, server URL, leave, status, mod DIE N (or off), menu");
    }
}

restart_poll() {
    gFresh = 1;
    gPoll = NULL_KEY;  // a reply in flight across a region change is lost
    poll();
}

default {
    state_entry() {
        string desc = llGetObjectDesc();
        if (llSubStringIndex(desc, "http") == 0) gServer = desc;
        llListen(CMD_CHANNEL, "", llGetOwner(), "");
        hover("affray: /5 join CODE");
        llSetTimerEvent(1.0);
    }

    on_rez(integer param) {
        restart_poll();
    }

    attach(key id) {
        if (id != NULL_KEY) restart_poll();
    }

    changed(integer change) {
        if (change & (CHANGED_REGION | CHANGED_TELEPORT)) restart_poll();
        if (change & CHANGED_OWNER) llResetScript();
    }

    touch_start(integer count) {
        if (llDetectedKey(0) != llGetOwner()) return;
        string name = llGetLinkName(llDetectedLinkNumber(0));
        if (name == "Chance" || name == "Attack" || name == "Defense" || name == "Damage" || name == "Injury")
            die_button(name);
        else if (gChoices != "[]") dialog();
        else say_owner("Nothing to choose now. /5 status");
    }

    listen(integer channel, string name, key id, string message) {
        if (id != llGetOwner()) return;
        if (channel == CMD_CHANNEL) { command(message); return; }
        if (channel != gDialogChan) return;
        close_dialog();
        if (gTextChoice != "") {
            string choice = gTextChoice;
            gTextChoice = "";
            act(choice, message);
            return;
        }
        chosen(message);
    }

    http_response(key request_id, integer status, list meta, string body) {
        if (request_id == gPoll) {
            gPoll = NULL_KEY;
            if (status == 200) {
                gBackoff = 0.0;
                gFresh = 0;
                take(body);
            } else if (status == 401) {
                say_owner("The seat's token no longer works: ask the GM for a new code.");
                gToken = "";
            } else {
                // 499, 5xx, 429: wait and try again; anything else too, said once a back-off (a gone table, a bad
                // request), so that no answer makes the HuD ask again every second
                if (status != 499 && status < 500 && status != 429 && gBackoff < 2.0)
                    say_owner("The server said " + (string)status + ": " + llJsonGetValue(body, ["message"]));
                failed(status);
            }
            return;
        }
        if (request_id != gReq) return;
        gReq = NULL_KEY;
        integer kind = gReqKind;
        if (status == 499 || status >= 500) { failed(status); return; }
        gBackoff = 0.0;
        if (status == 429) { failed(status); say_owner(llJsonGetValue(body, ["message"])); return; }
        if (status != 200 && status != 201) {
            say_owner(llJsonGetValue(body, ["message"]));
            if (status == 409 && kind == 2) {
                gAt = "";
                request(3, "GET", "/api/hud/" + gTable + "?l=" + (string)gL + "&c=" + (string)gC, "");
            }
            return;
        }
        if (kind == 1) {
            gToken = llJsonGetValue(body, ["token"]);
            gTable = llJsonGetValue(body, ["table"]);
            gL = 0; gC = 0; gVersion = 0; gAt = ""; gFresh = 1; gOver = 0;
            say_owner("Joined table " + gTable + " as seat " + llJsonGetValue(body, ["seat"]) + ".");
            poll();
        } else if (kind == 3) {
            gChoices = "";  // show the page even when it is the one shown
            take(body);
        }
    }

    timer() {
        float now = llGetTime();
        if (gDialogListen && now - gDialogAt > DIALOG_LIFE) { close_dialog(); gTextChoice = ""; }
        if (now < gResumeAt) return;
        if (gQueued != [] && gReq == NULL_KEY && now - gLastSent >= GAP)
            request(llList2Integer(gQueued, 0), llList2String(gQueued, 1), llList2String(gQueued, 2),
                llList2String(gQueued, 3));
        if (gPoll != NULL_KEY && now - gPollAt > POLL_STALE) gPoll = NULL_KEY;  // the watchdog
        if (gPoll == NULL_KEY && gReq == NULL_KEY) poll();
    }
}
