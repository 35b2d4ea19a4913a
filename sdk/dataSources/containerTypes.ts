/**
 * Shapes container modals and container push prompts share (spec: "Shapes are the same as in the
 * modal"): triggers, display settings, A/B test config, messages and filter nodes.
 */

/** When a modal or prompt shows (spec, "Trigger object"). */
export interface ContainerTrigger {
  /** Fire when an element becomes visible. */
  elementVisibility?: {
    /** CSS selector of the element. */
    selector?: string;
    /** How often it fires, e.g. `once-per-page`. */
    whenToFire?: string;
    /** Time the element must stay on screen (integer). */
    minOnScreenTime?: number;
    /** Whether DOM changes are observed for the element to appear. */
    observeDomChanges?: boolean;
  };
  /** Fire at a scroll depth, per axis. */
  scrollDepth?: {
    /** Horizontal threshold. */
    horizontal?: ContainerScrollThreshold;
    /** Vertical threshold. */
    vertical?: ContainerScrollThreshold;
  };
  /** Fire on a click. */
  clickElement?: {
    /** Whether the click trigger is on. */
    enabled?: boolean;
    /** The element clicked (selector). */
    element?: string;
  };
  /** Fire after a delay (integer). */
  timer?: number;
  /** Fire on a custom event. */
  customEvent?: {
    /** Event name. */
    event?: string;
  };
  /** True: every configured trigger must fire; false: any one is enough. */
  requireAllTriggers?: boolean;
  /** Fire once the DOM content is ready. */
  domContentReady?: boolean;
}

/** A scroll threshold of one axis. */
export interface ContainerScrollThreshold {
  /** Percentage scrolled (integer). */
  percentage?: number;
  /** Pixels scrolled (integer). */
  pixels?: number;
}

/** How a modal, prompt or message is displayed (spec, "Display settings"). */
export interface ContainerDisplaySettings {
  /** Screen position, e.g. `top-left`. */
  position?: string;
  /** Background colour. */
  backgroundColor?: string;
  /** Height (integer). */
  height?: number;
  /** Width (integer). */
  width?: number;
  /** Close on the call-to-action. */
  closeCta?: boolean;
  /** Close on the Escape key. */
  closeEsc?: boolean;
  /** Close on a click outside. */
  closeClick?: boolean;
  /** Close automatically after this time (integer). */
  closeAuto?: number;
  /** Delay before showing (integer). */
  delay?: number;
  /** Animation, e.g. `slide-up`. */
  animation?: string;
}

/** A/B test configuration of a modal or prompt (spec, "A/B test config"). */
export interface ContainerAbTestConfig {
  /** Number of appearances (integer). */
  numOfAppears?: number;
  /** Evaluation window (integer). */
  evaluationWindow?: number;
  /** Metric that picks the winner, e.g. `click_rate`. */
  winningMetric?: string;
  /** Name of the test. */
  name?: string;
  /** How the winner is delivered, e.g. `automatic`. */
  winnerDeliveryMode?: string;
}

/** A message inside a modal or prompt (spec, "Message"). */
export interface ContainerMessage {
  /** Message id; a nested record may come without one. */
  id?: string;
  /** Company (account) id. */
  companyId?: string;
  /** Container id. */
  containerId?: string;
  /** Kind of the owner, e.g. `modal`. */
  resource?: string;
  /** Id of the owner. */
  resourceId?: string;
  /** Experiment id. */
  experimentId?: string;
  /** Template id. */
  templateId?: string;
  /** Message name. */
  name?: string;
  /** Display settings of the message. */
  settings?: ContainerDisplaySettings;
  /** A/B variant label. */
  variant?: string;
  /** Whether this variant won (integer flag). */
  winner?: number;
  /** Primary language code. */
  primaryLang?: string;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}

/** One node of a recursive audience filter (spec, Container modal `filters`). */
export interface ContainerFilterNode {
  /** Id of the variable tested. */
  variable?: string;
  /** Value compared with. */
  value?: string;
  /** Nested filter nodes of the same shape. */
  filters?: ContainerFilterNode[];
}

/**
 * The fields a container modal and a container push prompt share (spec: "Shapes are the same as in
 * the modal"), mirroring the wire schemas' common shape. Every field but `id` may be absent.
 */
export interface ContainerItem {
  /** Id of the modal or prompt. */
  id: string;
  /** Company id. */
  companyId?: string;
  /** Container id. */
  containerId?: string;
  /** Status, e.g. `active`. */
  status?: string;
  /** Type, e.g. `push` for a modal, `html` for a prompt. */
  type?: string;
  /** Name. */
  name?: string;
  /** When it shows. */
  triggers?: ContainerTrigger;
  /** Recursive audience filter nodes. */
  filters?: ContainerFilterNode[];
  /** Display settings. */
  settings?: ContainerDisplaySettings;
  /** A/B test configuration. */
  abTestConfig?: ContainerAbTestConfig;
  /** Its messages. */
  messages?: ContainerMessage[];
  /** Position (integer). */
  position?: number;
  /** Created, `YYYY-MM-DD HH:MM:SS`. */
  createTime?: string;
  /** Last updated, `YYYY-MM-DD HH:MM:SS`. */
  updateTime?: string;
}
