/** Jest `globalTeardown`: see `limiterStateRoot.ts`. */
import { teardown } from "./limiterStateRoot";

export default teardown;
