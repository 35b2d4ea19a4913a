/**
 * `npm run upgrade:check`: fails when the build breaks a program or stack of the last release
 * (releaseCheck.ts) and the version does not say so.
 */
import { SDK_ENTRY } from "./programs";
import { checkAgainstRelease, describeCheck } from "./releaseCheck";
import { readSdkSurface } from "./sdkSurface";

const { ok, text } = describeCheck(checkAgainstRelease(readSdkSurface(SDK_ENTRY)));
(ok ? process.stdout : process.stderr).write(text);
process.exitCode = ok ? 0 : 1;
