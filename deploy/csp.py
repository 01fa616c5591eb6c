"""A strict Content-Security-Policy on every answer: the pages load nothing from elsewhere, so nothing may.

Scripts and styles come from our own static files only: no inline ``<script>``, no ``style=""`` attributes,
no ``eval`` (the templates keep data in ``json_script`` blocks, which are never executed, and the styles in
crawford.css). An injected ``<script>`` or a page framed by another site is refused by the browser even if a
template escaped something wrongly. Images may be ``data:`` URLs (Django's admin draws its icons so).
"""

from __future__ import annotations

POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response
