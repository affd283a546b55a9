import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIStorage
import DynamicUITesting
import Foundation
import Testing

/// Lets the main actor run the rebuilds the model scheduled.
@MainActor
func settle() async {
    for _ in 0..<5 { await Task.yield() }
}

@Suite("The model keeps the render tree: built once per change, never by a redraw")
@MainActor
struct KeptTreeTests {
    @Test func typingInAFieldNoExpressionReadsDoesNotRebuildTheTree() async throws {
        let fixture = Fixture()
        let model = try await fixture.model("material-create")
        await model.load()
        #expect(model.tree == nil, "nothing is built until a view says how")
        model.renderOptions = RenderOptions()
        model.renderIfNeeded()
        let built = model.renderCount
        #expect(built == 1)
        #expect(try model.tree?.get() != nil)
        for text in ["Á", "Ál", "Álg", "Álge", "Álgeb", "Álgebra"] {
            model.formState.setValue(text, for: "title")
            await settle()
            model.renderIfNeeded()
        }
        #expect(model.renderCount == built, "a keystroke does not rebuild the screen")
        #expect(model.formState.fieldValues["title"] == "Álgebra")
        // A push or pop elsewhere does not rebuild it either.
        fixture.navigation.push(Route(screenKey: "material-detail", params: ["id": "mat-1"]))
        _ = fixture.navigation.back()
        await settle()
        #expect(model.renderCount == built)
        // What the tree shows does: a failed submit's field errors.
        await model.perform(actionId: "submit")
        await settle()
        #expect(model.renderCount == built + 1, "one rebuild for the errors and the banner together")
        let text = TextRenderer().render(try #require(try model.tree?.get()))
        #expect(text.contains(try #require(model.formState.fieldErrors["subject"])))
        // The same options again change nothing; other options rebuild once.
        model.renderOptions = RenderOptions()
        await settle()
        #expect(model.renderCount == built + 1)
        model.renderOptions = RenderOptions(sizeClass: .regular, platform: .ipad)
        await settle()
        #expect(model.renderCount == built + 2)
    }

    @Test func aScreenWhoseExpressionsReadTheFormFollowsTyping() async throws {
        let fixture = Fixture()
        // The create form with a section header that greets what is typed in the title.
        let text = JSONWriter().string(from: try catalog.screenJSON("material-create"))
            .replacingOccurrences(of: "Información del material", with: "Hola {form.title}")
            .replacingOccurrences(of: "\"material-create\"", with: "\"greeting\"")
        await fixture.harness.transport.on(.get, "/v1/screens/greeting", .json(200, try JSONReader().read(Data(text.utf8))))
        let api = fixture.harness.services.api!
        let model = DynamicScreenViewModel(
            route: Route(screenKey: "greeting"),
            screens: ScreenLoader(client: api, cache: ScreenCache(clock: fixture.harness.clock)),
            data: DataLoader(client: api), dispatcher: try fixture.harness.dispatcher(), navigation: fixture.navigation,
            environment: evaluation, session: { teacherSession }, clock: fixture.harness.clock)
        await model.load()
        model.renderOptions = RenderOptions()
        model.renderIfNeeded()
        model.formState.setValue("Álgebra", for: "title")
        await settle()
        #expect(model.renderCount == 2)
        #expect(TextRenderer().render(try #require(try model.tree?.get())).contains("Hola Álgebra"))
    }

    @Test func theRenderedEventComesFromTheModelOncePerBuild() async throws {
        let fixture = Fixture()
        let events = RenderedEvents()
        let api = fixture.harness.services.api!
        await fixture.harness.transport.on(
            .get, "/v1/screens/material-create", .json(200, try catalog.screenJSON("material-create")))
        let model = DynamicScreenViewModel(
            route: Route(screenKey: "material-create"),
            screens: ScreenLoader(client: api, cache: ScreenCache(clock: fixture.harness.clock)), data: DataLoader(client: api),
            dispatcher: try fixture.harness.dispatcher(), navigation: fixture.navigation, environment: evaluation,
            session: { teacherSession }, clock: fixture.harness.clock, observers: DynamicUIObservers([events]))
        await model.load()
        model.renderOptions = RenderOptions()
        model.renderIfNeeded()
        for _ in 0..<20 { _ = model.tree }
        model.formState.setValue("x", for: "title")
        await settle()
        #expect(events.rendered == 1)
    }
}

/// Counts `screenRendered` events.
final class RenderedEvents: DynamicUIObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var rendered: Int { lock.withLock { count } }

    func observe(_ event: DynamicUIEvent) {
        if case .screenRendered = event { lock.withLock { count += 1 } }
    }
}
