// The models decoded by hand-written code (their schema is in custom.schema.json).

/** A catalog screen instance: the per-screen part of a screen, combined with the template named by template_id. */
export type ScreenInstance = Omit<ScreenDefinition, "pattern" | "template"> & {
    /** The template the instance is combined with. */
    template_id: string;
    /** Per-zone replacements keyed by zone id; null removes a member. */
    zone_overrides?: { [zoneId: string]: { [member: string]: JSONValue } } | null;
};

/** A reusable catalog template: the pattern and template a screen instance is combined with. */
export interface ScreenTemplateDocument {
    /** The id screen instances refer to. */
    template_id: string;
    /** Which pattern lowering draws the screens. */
    pattern: ScreenPattern;
    /** What the template is for. */
    description?: string | null;
    /** The structure of the screens. */
    template: ScreenTemplate;
}

/** Padding: one number for every edge, or per edge (missing edges are zero). */
export type EdgePadding =
    | number
    | { top?: number | null; bottom?: number | null; leading?: number | null; trailing?: number | null };

/** A frame dimension: points, or "infinity" to fill the available space. */
export type FrameDimension = number | "infinity";

/** The target of a navigation_link: a screen document name, or the name with params. */
export type ScreenReference = string | { screen: string; params?: { [name: string]: JSONValue } | null };

/**
 * The native components an app registers, by node type, with their props. Empty here; a backend
 * declares its app's own, e.g.
 * `declare module "./dynamicui" { interface NativeNodeProps { media_player: { url: string } } }`.
 */
export interface NativeNodeProps {}

/** A node drawn by a native component the app registers (see NativeNodeProps). */
export type NativeNode = {
    [Type in keyof NativeNodeProps]: { type: Type; props?: NativeNodeProps[Type] | null };
}[keyof NativeNodeProps];

/** Any DynamicUI document, either dialect. */
export type DynamicUIDocument =
    | ScreenDefinition
    | ScreenInstance
    | ScreenTemplateDocument
    | NavigationDefinition
    | ViewNode
    | ComponentLibrary
    | Theme
    | ClientCapabilities;
