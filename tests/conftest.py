"""Fixtures shared by every test folder: a real PostgreSQL server (``pg_server``, ``pg_url``; see tests/pg.py)."""

pytest_plugins = ["tests.pg"]
