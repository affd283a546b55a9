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
export type Dimension = number | "infinity";

/** The target of a navigation_link: a screen document name, or the name with params. */
export type ScreenReference = string | { screen: string; params?: { [name: string]: JSONValue } | null };

/** Parameter names to bindings ("$.path") or literals. */
export type NodeParams = { [name: string]: JSONValue };

/** An action of the node dialect, discriminated by actionType; parameter values may be bindings. */
export type NodeAction =
    | { actionType: "navigate" | "present"; screen: string; params?: NodeParams | null }
    | { actionType: "dismiss" }
    | {
          actionType: "api";
          endpoint: string;
          params?: NodeParams | null;
          resultKey?: string | null;
          select?: NodeResultSelection | null;
      }
    | { actionType: "setState"; key: string; value: JSONValue }
    | { actionType: "custom"; event: string; payload?: NodeParams | null }
    | { actionType: "sequence"; actions: NodeAction[] };

/** Props of vstack, hstack, lazy_vstack and lazy_hstack. */
export interface StackProps { spacing?: number | null; alignment?: string | null }
/** Props of a zstack. */
export interface ZStackProps { alignment?: string | null }
/** Props of a scroll: horizontal or vertical. */
export interface ScrollProps { axis?: string | null }
/** Props of a list: a binding to an array and the template drawn per item. */
export interface ListProps { items: string; itemTemplate: ViewNode; separator?: boolean | null }
/** Props of a spacer. */
export interface SpacerProps { minLength?: number | null }
/** Props of a grid. */
export interface GridProps { columns?: number | null; spacing?: number | null }
/** Props of a text: the content (text with placeholders or a binding) and a line limit. */
export interface TextProps { content?: JSONValue; lineLimit?: number | null }
/** Props of an image: a URL binding or system:<symbol>. */
export interface ImageProps {
    source?: JSONValue;
    resizable?: boolean | null;
    aspectRatio?: number | null;
    contentMode?: string | null;
    accessibilityLabel?: string | null;
}
/** Props of a button. */
export interface ButtonProps { label?: ViewNode | null; action?: NodeAction | null }
/** Props of a navigation_link. */
export interface NavigationLinkProps { destination: ScreenReference; label?: ViewNode | null }
/** Props of a text_field: a two-way binding into state. */
export interface TextFieldProps { placeholder?: string | null; binding?: string | null }
/** Props of a search_bar. */
export interface SearchBarProps { placeholder?: string | null; binding?: string | null; onSubmit?: NodeAction | null }
/** Props of a tab_view. */
export interface TabViewProps { tabs: TabItem[] }
/** Props of a navigation_stack. */
export interface NavigationStackProps { root?: ViewNode | null }
/** Props of a screen. */
export interface ScreenProps {
    title?: JSONValue;
    body?: ViewNode | null;
    toolbar?: ViewNode | null;
    onLoad?: NodeAction | null;
}
/** Props of a sheet. */
export interface SheetProps { content?: ViewNode | null }
/** Props of a component: its name and arguments. */
export interface ComponentProps { name: string; parameters?: NodeParams | null }

/**
 * One element of a node-dialect document, discriminated by type: each type has its own props.
 * A type this version does not know (for newer apps, with a fallback) needs a cast.
 */
export type ViewNode = Omit<ViewNodeMembers, "type"> &
    (
        | { type: "vstack" | "hstack" | "lazy_vstack" | "lazy_hstack"; props?: StackProps | null }
        | { type: "zstack"; props?: ZStackProps | null }
        | { type: "scroll"; props?: ScrollProps | null }
        | { type: "list"; props: ListProps }
        | { type: "spacer"; props?: SpacerProps | null }
        | { type: "grid"; props?: GridProps | null }
        | { type: "text"; props?: TextProps | null }
        | { type: "image"; props?: ImageProps | null }
        | { type: "divider"; props?: null }
        | { type: "button"; props?: ButtonProps | null }
        | { type: "navigation_link"; props: NavigationLinkProps }
        | { type: "text_field"; props?: TextFieldProps | null }
        | { type: "search_bar"; props?: SearchBarProps | null }
        | { type: "tab_view"; props: TabViewProps }
        | { type: "navigation_stack"; props?: NavigationStackProps | null }
        | { type: "screen"; props?: ScreenProps | null }
        | { type: "sheet"; props?: SheetProps | null }
        | { type: "component"; props: ComponentProps }
        | NativeNode
    );

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
