"""web/: the HTTP and WebSocket API of the table server (layer 5). docs/table.md, 'The API'.

``create_app(service)`` (:mod:`affray.web.app`) and ``serve(...)`` (:mod:`affray.web.server`). The web table's pages
(templates, static files) are to live beside these modules; ``/`` and ``/t/ID`` are placeholders until then.
"""
