"""deploy/nginx.conf, the load balancer of docker-compose.yml (issue 29 §3), run by the real nginx with its
upstream pointed at two test backends: both sockets of a match reach one backend (a consistent hash of the
match id in ``/ws/matches/{id}``; the query string does not count), the matches spread over both backends,
WebSocket upgrades are passed on (``Upgrade``/``Connection``) and the client's address is forwarded. Skipped
loudly where nginx is not installed (``make test`` installs Debian's ``nginx-light``)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Echo(BaseHTTPRequestHandler):
    """Answers with its backend's name and the headers the balancer passed on."""

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer()

    def _answer(self) -> None:
        body = json.dumps(
            {
                "backend": self.server.name,  # type: ignore[attr-defined]
                "path": self.path,
                "upgrade": self.headers.get("Upgrade"),
                "connection": self.headers.get("Connection"),
                "forwarded_for": self.headers.get("X-Forwarded-For"),
                "host": self.headers.get("Host"),
                "request_id": self.headers.get("X-Request-ID"),
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def balancer(tmp_path: Path) -> Iterator[str]:
    if NGINX is None:
        pytest.skip("!!! nginx not installed (apt-get install nginx-light): deploy/nginx.conf NOT TESTED")
    backends = []
    for name in ("web1", "web2"):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
        server.name = name  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        backends.append(server)
    port = _free_port()
    site = CONF.read_text()
    for server, name in zip(backends, ("web1", "web2"), strict=True):
        site, n = re.subn(rf"server {name}:8000;", f"server 127.0.0.1:{server.server_address[1]};", site)
        assert n == 1, f"deploy/nginx.conf has no 'server {name}:8000;' line"
    site, n = re.subn(r"listen 8080;", f"listen 127.0.0.1:{port};", site)
    assert n == 1
    for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / d).mkdir()
    temps = " ".join(f"{d}_temp_path {tmp_path / d};" for d in ("proxy", "fastcgi", "uwsgi", "scgi"))
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"daemon off; worker_processes 1; pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;\n"
        "events { worker_connections 64; }\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path / 'body'}; {temps}\n{site}\n}}\n"
    )
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(main)], stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                httpx.get(f"{url}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    raise AssertionError(f"nginx did not start: {err}") from None
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        for server in backends:
            server.shutdown()
            server.server_close()


def test_both_sockets_of_a_match_reach_one_worker_and_matches_spread(balancer: str) -> None:
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade"}
    seen: dict[str, str] = {}
    with httpx.Client(base_url=balancer, timeout=5) as client:
        for i in range(40):
            match_id = f"m{i:03d}x{i * 7919 % 1000:03d}"
            first = client.get(f"/ws/matches/{match_id}?ack=state", headers=upgrade).json()
            for query in ("?ack=state", "", "?ack=state&x=1"):  # the other player, reconnects
                again = client.get(f"/ws/matches/{match_id}{query}", headers=upgrade).json()
                assert again["backend"] == first["backend"], match_id
            assert first["upgrade"] == "websocket" and first["connection"] == "upgrade"
            assert first["forwarded_for"] == "127.0.0.1"
            assert first["host"] == balancer.removeprefix("http://")  # with the port: Origin checks
            assert first["request_id"] and len(first["request_id"]) == 32
            seen[match_id] = first["backend"]
        assert set(seen.values()) == {"web1", "web2"}  # 40 matches on both workers
        plain = client.get("/api/games").json()
        assert plain["upgrade"] is None and plain["connection"] in (None, "")  # upstream keep-alive
        posted = client.post("/api/auth/login", json={}, headers={"Origin": balancer}).json()
        assert posted["host"] == balancer.removeprefix("http://")  # the app's same-origin check passes
