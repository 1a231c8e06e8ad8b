/**
 * The page `GET /api/logout` shows when the request did not come from the site itself (product rule 33): signing
 * out takes a click on its button, which POSTs from this origin.
 */
import { site } from "../../src/config/site";

export const LOGOUT_CONFIRM_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log out - ${site.brandName}</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f8fafc;color:#0f172a}
main{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:2rem;max-width:24rem;margin:1rem;text-align:center}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{color:#475569;margin:0 0 1.5rem}
button,a{font:inherit;font-weight:600;border-radius:8px;padding:.625rem 1.25rem;display:inline-block}
button{background:#1d4ed8;color:#fff;border:0;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
a{color:#1d4ed8;text-decoration:none}
</style>
</head>
<body>
<main>
<h1>Log out?</h1>
<p>Do you want to log out of ${site.brandName}?</p>
<form method="post" action="/api/logout">
<button type="submit">Logout</button>
<a href="/">Cancel</a>
</form>
</main>
</body>
</html>
`;
