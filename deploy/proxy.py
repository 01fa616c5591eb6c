"""The client's address behind a reverse proxy, believed only when the proxy is one we trust.

The shipped nginx (deploy/services/nginx.conf) connects from 127.0.0.1 and appends the address it saw to
``X-Forwarded-For``. Without this, every member reaches Django as 127.0.0.1 and one stranger's failed logins
lock out the whole club (django-axes counts per address). Believing the header from anyone would be worse: a
client talking to gunicorn directly could pick a fresh address for every guess.

So: when the connection comes from an address in ``TRUSTED_PROXIES`` (addresses or networks, from the
environment), the header is read from the right, skipping our own proxies; the first address that is not one
of them is the client (anything to its left was written by the client and proves nothing). From any other
address the header is ignored. The middleware writes the answer into ``REMOTE_ADDR`` and drops the header, so
axes, DRF's throttling and the logs all see the same client.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings

FORWARDED_FOR = "HTTP_X_FORWARDED_FOR"


def _networks(entries) -> list:
    out = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue  # a typo in the configuration trusts nothing rather than failing every request
    return out


def _trusted(address: str, networks) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip.version == n.version and ip in n for n in networks)


def client_address(request) -> str | None:
    """The client's address (also axes' ``AXES_CLIENT_IP_CALLABLE``)."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR")
    forwarded = meta.get(FORWARDED_FOR, "")
    networks = _networks(getattr(settings, "TRUSTED_PROXIES", []))
    if not remote or not forwarded or not _trusted(remote, networks):
        return remote
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return remote  # a malformed header: keep the proxy's own address rather than guess
        if not _trusted(hop, networks):
            return hop
    return remote


class TrustedProxyMiddleware:
    """First in MIDDLEWARE: every later layer sees the real client in REMOTE_ADDR, and no header to misread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        address = client_address(request)
        if address:
            request.META["REMOTE_ADDR"] = address
        request.META.pop(FORWARDED_FOR, None)
        return self.get_response(request)
