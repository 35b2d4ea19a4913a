/**
 * `npm run upgrade:surface`: writes the build's SDK surface to tests/upgrade/sdk-surface.json, so a
 * change of the public API shows in review (tests/scripts/upgrade/sdkSurface.test.ts fails while the
 * file is stale).
 */
import * as fs from "node:fs";
import { SDK_ENTRY, SURFACE_FILE } from "./programs";
import { readSdkSurface, surfaceText } from "./sdkSurface";

fs.writeFileSync(SURFACE_FILE, surfaceText(readSdkSurface(SDK_ENTRY)));
