/** What a user sets (stack config, environment, arguments) and how it resolves: the settings, the share of the limits. */
export { rateLimitShareFailure, rateLimitShareRefusal } from "./rateLimitShare";
export {
  SETTINGS,
  type SettingKey,
  type SettingOrigin,
  type Settings,
  type SettingsLayer,
  configKey,
  resolveSettings,
  settingsWith,
  stackConfigLayer,
} from "./settings";
