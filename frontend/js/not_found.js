// The "page not found" page (served with status 404 for any unknown page address, e.g. /room/
// without a code): only the shared header and a translated message with a link to the lobby.

import { initPage } from "./page.js";

initPage();
