// The page's colours: light or dark as the device prefers (prefers-color-scheme), or as this browser chose in the
// settings (kept in localStorage). A classic script in the head, so the theme is set before the first paint and a
// dark page never flashes white; style.css draws both from its colour variables (html[data-theme]).
(() => {
  const KEY = "affray.theme", root = document.documentElement, media = matchMedia("(prefers-color-scheme: dark)");
  const chosen = () => { try { return localStorage.getItem(KEY) || "system"; } catch { return "system"; } };
  const apply = () => {
    const theme = chosen();
    root.dataset.theme = theme === "system" ? (media.matches ? "dark" : "light") : theme;
  };
  apply();
  media.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    const select = document.getElementById("theme");
    if (!select) return;
    select.value = chosen();
    select.addEventListener("change", () => { try { localStorage.setItem(KEY, select.value); } catch { /* kept for this page only */ } apply(); });
  });
})();
