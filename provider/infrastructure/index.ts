/** What every layer shares and the platform knows nothing of: private files, plain-credential warnings. */
export { CREATE_NEW, createNewFile, currentUid, ensurePrivateDirectory, readFileNoLink, writeFileAtomically } from "./privateFiles";
export { plainCredentialsWarning, type ConfigCredentials } from "./plainCredentials";
