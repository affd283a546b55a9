import DynamicUI
import Testing

/// The tabs' stacks as a value, the same for both dialects: selection, pushing, back, closing
/// a route wherever it is, without a navigation model or an app.
@Suite("Tab stacks")
struct TabStacksTests {
    @Test func eachTabKeepsItsPlaceAndTheSelectedTabAgainGoesToItsRoot() {
        var tabs = TabStacks<Route>(selected: "home")
        let detail = Route(screenKey: "material-detail")
        tabs.stack.append(Route(screenKey: "materials-list"))
        tabs.stack.append(detail)
        tabs.select("settings")
        #expect(tabs.stack.isEmpty && tabs["home"].count == 2)
        tabs.select("home")
        #expect(tabs.stack.last == detail, "back on the tab, its place is kept")
        tabs.select("home")
        #expect(tabs.stack.isEmpty && tabs.stacks["home"] == nil, "the selected tab again: its root, no empty entry")
    }

    @Test func backAndCloseWhereverTheRouteIs() {
        var tabs = TabStacks<Route>(selected: "home")
        let backAtRoot = tabs.back()
        #expect(!backAtRoot, "nothing above the root")
        let (a, b, c) = (Route(screenKey: "a"), Route(screenKey: "b"), Route(screenKey: "c"))
        tabs.stack = [a, b]
        tabs.select("other")
        tabs.stack = [c]
        #expect(tabs.holds(b.id) && tabs.holds(c.id))
        // Closing a route on a tab not shown closes it and what is above it there.
        let closedB = tabs.close(b.id)
        #expect(closedB && tabs["home"] == [a] && tabs.stack == [c])
        let closedA = tabs.close(a.id)
        #expect(closedA && tabs.stacks["home"] == nil)
        let closedAgain = tabs.close(a.id)
        #expect(!closedAgain, "closed already")
        let wentBack = tabs.back()
        #expect(wentBack && !tabs.holds(c.id))
        #expect(tabs.pushed.isEmpty)
    }

    @Test func noTabSelectedPushesNothingAndKeptTabsAreFiltered() {
        var tabs = TabStacks<Route>()
        tabs.stack = [Route(screenKey: "lost")]
        #expect(tabs.stacks.isEmpty, "without a selected tab there is nowhere to push")
        tabs.selected = "a"
        tabs.stack = [Route(screenKey: "x")]
        tabs["b"] = [Route(screenKey: "y")]
        #expect(tabs.pushed.map(\.screenKey) == ["x", "y"])
        tabs.keepTabs { $0 == "b" }
        #expect(tabs.pushed.map(\.screenKey) == ["y"])
    }
}
