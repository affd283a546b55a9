import DynamicUI
import Foundation
import Testing

/// The tabs' stacks as a value, the same for both dialects: each tab's place, going back,
/// closing a route wherever it is, without a navigation model or an app.
@Suite("Tab stacks")
struct TabStacksTests {
    @Test func eachTabKeepsItsPlace() {
        var tabs = TabStacks<Route>()
        let detail = Route(screenKey: "material-detail")
        tabs["home"].append(Route(screenKey: "materials-list"))
        tabs["home"].append(detail)
        #expect(tabs["settings"].isEmpty && tabs["home"].last == detail)
        tabs["home"] = []
        #expect(tabs.stacks["home"] == nil, "a tab at its root keeps no entry")
        tabs[nil] = [detail]
        #expect(tabs.stacks.isEmpty && tabs[nil].isEmpty, "without a tab there is nowhere to push")
    }

    @Test func backAndCloseWhereverTheRouteIs() {
        var tabs = TabStacks<Route>()
        let backAtRoot = tabs.back(on: "home")
        #expect(!backAtRoot, "nothing above the root")
        let (a, b, c) = (Route(screenKey: "a"), Route(screenKey: "b"), Route(screenKey: "c"))
        tabs["home"] = [a, b]
        tabs["other"] = [c]
        #expect(tabs.holds(b.id) && tabs.holds(c.id))
        // Closing a route on a tab not shown closes it and what is above it there.
        let closedB = tabs.close(b.id)
        #expect(closedB && tabs["home"] == [a] && tabs["other"] == [c])
        let closedA = tabs.close(a.id)
        #expect(closedA && tabs.stacks["home"] == nil)
        let closedAgain = tabs.close(a.id)
        #expect(!closedAgain, "closed already")
        let wentBack = tabs.back(on: "other")
        #expect(wentBack && !tabs.holds(c.id) && tabs.pushed.isEmpty)
    }

    @Test func pushedRoutesInTabOrderAndKeptTabsFiltered() {
        var tabs = TabStacks<Route>()
        tabs["b"] = [Route(screenKey: "y")]
        tabs["a"] = [Route(screenKey: "x")]
        #expect(tabs.pushed.map(\.screenKey) == ["x", "y"])
        tabs.keepTabs { $0 == "b" }
        #expect(tabs.pushed.map(\.screenKey) == ["y"])
    }
}
