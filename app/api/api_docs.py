"""The interactive API documentation ``/docs`` (Swagger UI), served from this server.

FastAPI's own ``/docs`` loads Swagger UI from a CDN (blank offline, and barred by the site's
``Content-Security-Policy``: ``app.api.security_headers``). Here the page is FastAPI's
``get_swagger_ui_html`` pointed at the copy of Swagger UI's files that the ``fastapi-offline``
package ships (``/docs/assets/…``), and it carries the site's policy with one change: its
single inline script, the ``SwaggerUIBundle({...})`` call, is allowed by its SHA-256 hash
(CSP Level 3 "hash-source"). ``app.main`` turns FastAPI's CDN pages off (``docs_url=None``,
``redoc_url=None``): ReDoc needs inline styles, and one API page is enough.
"""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from app.api.security_headers import CONTENT_SECURITY_POLICY

DOCS_URL = "/docs"
ASSETS_URL = "/docs/assets"
#: Where fastapi-offline keeps Swagger UI's files (``swagger-ui-bundle.js``, ``swagger-ui.css``).
ASSETS = ("fastapi_offline", "static")
#: Swagger UI options: no online validator (its badge would load an image from elsewhere).
PARAMETERS = {"validatorUrl": None}
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def script_hashes(html: str) -> list[str]:
    """Return the CSP hash-sources (``'sha256-<base64>'``) of the inline scripts of ``html``."""
    return ["'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"
            for body in INLINE_SCRIPT.findall(html)]


def docs_policy(html: str) -> str:
    """Return the site's Content-Security-Policy with ``html``'s inline scripts allowed by hash
    in ``script-src`` (nothing else relaxed)."""
    allowed = " ".join(["'self'", *script_hashes(html)])
    return CONTENT_SECURITY_POLICY.replace("script-src 'self'", f"script-src {allowed}", 1)


def install(app: FastAPI) -> None:
    """Serve ``/docs`` (Swagger UI for ``app.openapi_url``) and its files under ``/docs/assets``."""
    app.mount(ASSETS_URL, StaticFiles(packages=[ASSETS]), name="docs-assets")

    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "").rstrip("/")
        page = get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}", title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            swagger_ui_parameters=PARAMETERS)
        html = bytes(page.body).decode()
        page.headers["content-security-policy"] = docs_policy(html)
        return page

    app.add_route(DOCS_URL, swagger_ui, include_in_schema=False)
