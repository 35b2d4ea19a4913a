/** Jest `globalSetup`: see `limiterStateRoot.ts`. */
import { setup } from "./limiterStateRoot";

export default setup;
