import DynamicUI
import DynamicUIActions
import DynamicUICatalog
import DynamicUIModels
import DynamicUINetwork
import DynamicUIRendering
import DynamicUIStorage
import DynamicUITesting
import DynamicUIWeb
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
        let model = try await fixture.loaded("material-create")
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
        let model = try fixture.model(route: Route(screenKey: "greeting"))
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
        let model = try await fixture.model("material-create", observers: DynamicUIObservers([events]))
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

@Suite("Lists: lazy rows, paging when the last row shows, failures that keep the rows, searches without results")
@MainActor
struct ListBehaviourTests {
    @Test func theNextPageIsAskedForWhenTheLastRowShowsAndAFailureOffersARetry() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(
            answering: materialsPage(0..<20, of: 45), .json(503, nil), materialsPage(20..<40, of: 45))
        let pages = { await fixture.harness.transport.requests(to: "/v1/materials").count }
        #expect(await pages() == 1)
        for index in 0..<19 { await model.rowAppeared(at: index) }
        #expect(await pages() == 1, "rows above the last ask for nothing")
        await model.rowAppeared(at: 19)
        #expect(await pages() == 2, "the last row asks for page 2")
        // That request failed: the rows stay, the list says so, and paging waits for the user.
        guard case .success(let items, true, false) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(items.count == 20 && model.nextPageFailed)
        await model.rowAppeared(at: 19)
        #expect(await pages() == 2, "no automatic retry loop")
        let html = HTMLRenderer().fragment(try model.render(options: RenderOptions()))
        #expect(html.contains("class=\"more failed\"") && html.contains("Reintentar"))
        await model.loadNextPage()
        #expect(await pages() == 3 && !model.nextPageFailed)
        guard case .success(let all, true, false) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(all.count == 40)
    }

    @Test func aFailedRefreshOrSearchKeepsTheRowsAndSaysSoInABanner() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials", materialsPage(0..<5, of: 5))
        let model = try await fixture.loaded("materials-list")
        await fixture.harness.transport.on(.get, "/v1/materials", .failure(.noConnection))
        await fixture.harness.transport.setFallback(.failure(.noConnection))
        await model.refresh()
        guard case .success(let items, _, _) = model.dataState else {
            Issue.record("a failed refresh replaced the rows: \(model.dataState)")
            return
        }
        #expect(items.count == 5 && model.failure == nil)
        #expect(model.banner?.kind == .pending, "the saved response, marked as saved")
        await fixture.harness.transport.on(.get, "/v1/screens/materials-list", .failure(.noConnection))
        await model.search("Material 3")
        #expect(model.failure == nil && model.searchText == "Material 3", "the search field stays")
        #expect(model.banner?.kind == .error, "\(String(describing: model.banner))")
        let text = TextRenderer().render(try model.render(options: RenderOptions()))
        #expect(text.contains("rows:5") && text.contains("searchable") && text.contains("Sin conexión"), "\(text)")
    }

    @Test func searchRefreshAndToolbarStayPutWhileTheDataComesGoesAndFails() async throws {
        // The view applies `.searchable`, `.refreshable` and the toolbars from the chrome: they
        // must not come and go with the data, or the list under them is rebuilt from scratch.
        let fixture = Fixture()
        let model = try await fixture.model("materials-list")
        func chrome() throws -> ScreenChrome? {
            for node in flattenAll(try model.render(options: RenderOptions())) {
                if case .screen(let chrome) = node.kind { return chrome }
            }
            return nil
        }
        await fixture.harness.transport.on(.get, "/v1/materials", materialsPage(0..<5, of: 5))
        await model.load()
        let before = try #require(try chrome())
        await fixture.harness.transport.on(.get, "/v1/materials", materialsPage(0..<0, of: 0))
        await model.refresh()
        let loaded = try #require(try chrome())
        await fixture.harness.transport.setFallback(.failure(.noConnection))
        await fixture.harness.transport.on(.get, "/v1/materials", .failure(.noConnection))
        await model.refresh()
        let failed = try #require(try chrome())
        for state in [loaded, failed] {  // no rows, then a failed refresh
            #expect(state.search?.field == before.search?.field && state.search != nil)
            #expect(state.refreshActionId == before.refreshActionId && state.refreshActionId != nil)
            #expect(state.toolbar.map(\.actionId) == before.toolbar.map(\.actionId))
        }
    }

    @Test func scrollZonesOfDashboardsAndDetailsAreLazy() async throws {
        let fixture = Fixture()
        for key in ["dashboard-teacher", "material-detail"] {
            let model = try await fixture.model(key, params: ["id": "mat-1"])
            await fixture.harness.transport.setFallback(.json(200, ["id": "mat-1", "title": "Álgebra"]))
            await model.load()
            let tree = try model.render(options: RenderOptions())
            let scrolls = flattenAll(tree).filter { if case .scroll(.vertical) = $0.kind { return true } else { return false } }
            #expect(!scrolls.isEmpty, "\(key)")
            for scroll in scrolls {
                guard case .stack(.vertical, _, _, let lazy)? = scroll.children.first?.kind else {
                    Issue.record("\(key): \(scroll.children.first?.kind as Any)")
                    continue
                }
                #expect(lazy, "\(key): its rows are built as they scroll into view")
            }
        }
    }

    @Test func saysNothingMatchesTheTermAndOffersToClearIt() async throws {
        let fixture = Fixture()
        let model = try await fixture.materialsList(
            answering: materialsPage(0..<5, of: 137), materialsPage(0..<0, of: 0), materialsPage(0..<5, of: 137))
        await model.search("zzz")
        let text = TextRenderer().render(try model.render(options: RenderOptions()))
        #expect(text.contains("Sin resultados") && text.contains("Nada coincide con «zzz».") && text.contains("Borrar búsqueda"))
        #expect(!text.contains("Aún no hay materiales"), "not the empty collection's state: \(text)")
        await model.perform(actionId: RenderSearchField.clearActionId)
        #expect(model.searchText.isEmpty)
        guard case .success(let items, _, _) = model.dataState else {
            Issue.record("\(model.dataState)")
            return
        }
        #expect(items.count == 5)
    }
}

@Suite("Actions fired by buttons, links, banners and rows (a row's confirmation acts on its row)")
@MainActor
struct FiredActionTests {
    @Test func firedActionsRunInOrderAndCancelledOnesDoNot() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials", materialsPage(0..<3, of: 3))
        let model = try await fixture.loaded("materials-list")
        for index in 0..<3 { model.fire("open-item", item: ["id": .string("mat-\(index)")]) }
        await model.firedActionsFinished()
        #expect(fixture.navigation.stack.map { $0.params["id"] } == ["mat-0", "mat-1", "mat-2"])
        #expect(model.firedActionCount == 0, "finished actions are not kept")
        model.fire("open-item", item: ["id": "mat-9"])
        model.cancelFiredActions()
        await settle()
        #expect(fixture.navigation.stack.count == 3, "the screen went away before it ran")
    }

    @Test func theSameExternalLinkOpensEveryTime() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(
            .get, "/v1/materials/mat-1", .json(200, ["id": "mat-1", "title": "Álgebra", "file_url": "https://edugo.test/f.pdf"]))
        let model = try await fixture.loaded("material-detail", params: ["id": "mat-1"])
        var opened: [URL] = []
        for _ in 0..<2 {
            await model.perform(actionId: "download")
            if let url = model.urlToOpen {
                opened.append(url)
                model.didOpenURL()
            }
            #expect(model.urlToOpen == nil)
        }
        #expect(opened.count == 2, "a second tap opens it again")
    }

    @Test func aBannerGoesByItselfOnlyWhenItShould() async throws {
        let fixture = Fixture()
        let model = try await fixture.loaded("material-create")
        let success = Banner(kind: .success, message: "Material creado")
        model.show(banner: success)
        let waiting = Task { await model.bannerShown(success, voiceOver: false) }
        #expect(await fixture.harness.clock.waitForSleepers(1))
        fixture.harness.clock.advance(by: 6)
        await waiting.value
        #expect(model.banner == nil)
        // With VoiceOver on, or for an error, it stays until dismissed.
        model.show(banner: success)
        var spoken: [String] = []
        await model.bannerShown(success, voiceOver: true) { spoken.append($0) }
        #expect(model.banner == success)
        #expect(spoken == ["Material creado"], "VoiceOver reads the banner as it appears")
        let error = Banner(kind: .error, message: "No se pudo")
        model.show(banner: error)
        await model.bannerShown(error, voiceOver: false) { spoken.append($0) }
        #expect(model.banner == error)
        #expect(spoken.count == 1, "nothing is announced without VoiceOver")
        #expect(success.lifetime(voiceOver: false) == 6 && success.lifetime(voiceOver: true) == nil)
        #expect(error.lifetime(voiceOver: false) == nil)
    }

    @Test func deletingFromARowsSwipeDeletesThatRow() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials", materialsPage(0..<3, of: 3))
        await fixture.harness.transport.on(.delete, "/v1/materials/mat-1", .json(204, nil))
        let model = try await fixture.loaded("materials-list")
        await model.perform(actionId: "delete-item", item: ["id": "mat-1", "title": "Material 1"])
        let request = try #require(model.confirmation)
        #expect(request.message?.contains("Material 1") == true)
        await model.confirm()
        let deletes = await fixture.harness.transport.requests.filter { $0.method == .delete }
        #expect(deletes.map(\.url.path) == ["/v1/materials/mat-1"])
        #expect(model.banner?.kind == .success, "\(String(describing: model.banner))")
        // Declining forgets the row: a later confirmation on the detail uses the screen's record.
        await model.perform(actionId: "delete-item", item: ["id": "mat-2", "title": "Material 2"])
        model.cancelConfirmation()
        #expect(await fixture.harness.transport.requests.filter { $0.method == .delete }.count == 1)
    }
}

@Suite("Sheets: always closable, never swiped away with unsaved edits")
@MainActor
struct SheetTests {
    @Test func aSheetWithoutItsOwnCancelGetsCloseAndEditsBlockTheSwipe() async throws {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials/mat-1", .json(200, ["id": "mat-1", "title": "Álgebra"]))
        let route = Route(screenKey: "material-detail", params: ["id": "mat-1"], presentation: .sheet)
        fixture.navigation.push(Route(screenKey: "materials-list"))
        fixture.navigation.push(route)
        let model = try await fixture.model(catalogRoute: route)
        await model.load()
        guard case .screen(let chrome) = try model.render(options: RenderOptions()).kind else {
            Issue.record("not a screen")
            return
        }
        #expect(chrome.presentation == .sheet)
        let close = try #require(chrome.toolbar.first { $0.placement == .cancellation })
        #expect(close.actionId == RenderToolbarItem.dismissActionId && close.title == "Cerrar")
        await model.perform(actionId: close.actionId)
        #expect(fixture.navigation.current?.screenKey == "materials-list", "Close closed the sheet")

        // A create form brings its own Cancel: no second one; typing blocks the swipe.
        let form = try await fixture.loaded("material-create")
        guard case .screen(let formChrome) = try form.render(options: RenderOptions()).kind else { return }
        #expect(formChrome.toolbar.filter { $0.placement == .cancellation }.count == 1)
        #expect(!form.hasUnsavedChanges)
        form.formState.setValue("Álgebra", for: "title")
        #expect(form.hasUnsavedChanges)
        form.formState.setValue("", for: "title")
        #expect(!form.hasUnsavedChanges, "back to what it was")
    }
}

@Suite("What a role may do decides what a screen offers")
@MainActor
struct PermissionTests {
    static let student: Set<String> = ["materials.read", "assessments.read", "assessments.take", "attempts.read"]
    static let teacher: Set<String> = ["materials.read", "materials.create", "materials.update", "materials.delete"]

    func listTree(
        _ permissions: Set<String>?, items: JSONValue = materials(0..<3)
    ) async throws -> (RenderNode, DynamicScreenViewModel, Fixture) {
        let fixture = Fixture()
        await fixture.harness.transport.on(.get, "/v1/materials", .json(200, ["items": items, "total": 3]))
        let session = SessionInfo(
            user: teacherSession.user,
            context: UserContext(role: "student", roleName: "Estudiante", permissions: permissions))
        let model = try await fixture.model(catalogRoute: Route(screenKey: "materials-list"), session: { session })
        await model.load()
        return (try model.render(options: RenderOptions()), model, fixture)
    }

    static func offered(_ tree: RenderNode) -> Set<String> {
        var ids = Set<String>()
        if case .screen(let chrome) = tree.kind { ids.formUnion(chrome.toolbar.map(\.actionId)) }
        for node in flattenAll(tree) {
            if case .row(let row) = node.kind {
                ids.formUnion(row.swipeActionIds + row.contextActionIds + row.menuActions.map(\.id))
            }
        }
        return ids
    }

    @Test func aStudentIsNotOfferedCreateEditOrDelete() async throws {
        let (studentTree, studentModel, fixture) = try await listTree(Self.student)
        let refused: Set<String> = ["create", "edit-item", "delete-item"]
        #expect(Self.offered(studentTree).isDisjoint(with: refused), "\(Self.offered(studentTree))")
        // Fired anyway (a stale view, a host calling it): refused without a request.
        let before = await fixture.harness.transport.requests.count
        let result = await studentModel.perform(actionId: "delete-item", item: ["id": "mat-1", "title": "x"])
        #expect(result == .error(message: "Tu cuenta no tiene permiso para hacer esto."))
        #expect(await fixture.harness.transport.requests.count == before && studentModel.confirmation == nil)
        let (teacherTree, _, _) = try await listTree(Self.teacher)
        #expect(refused.isSubset(of: Self.offered(teacherTree)), "\(Self.offered(teacherTree))")
        // A server that does not say what the user may do: everything is offered, the server decides.
        let (unknownTree, _, _) = try await listTree(nil)
        #expect(refused.isSubset(of: Self.offered(unknownTree)))
    }

    @Test func aRowOffersOnlyWhatItsRecordGrants() async throws {
        func record(_ index: Int, granting grants: [String]?) throws -> JSONValue {
            guard case .object(var object) = try #require(materials(index..<index + 1).arrayValue?.first) else { return .null }
            if let grants { object["permissions"] = .array(grants.map(JSONValue.string)) }
            return .object(object)
        }
        let colleagues = try record(1, granting: [])
        let items: JSONValue = .array([
            try record(0, granting: ["materials.update", "materials.delete"]), colleagues, try record(2, granting: nil),
        ])
        let (tree, model, fixture) = try await listTree(Self.teacher, items: items)
        var offered: [String] = []
        for node in flattenAll(tree) {
            guard case .list(_, let rows) = node.kind else { continue }
            for index in 0..<rows.count {
                if case .row(let row) = rows.row(at: index).kind {
                    offered.append((row.swipeActionIds + row.menuActions.map(\.id)).sorted().joined(separator: ","))
                }
            }
        }
        #expect(offered.count == 3)
        #expect(offered[0].contains("delete-item"), "his own: \(offered)")
        #expect(offered[1].isEmpty, "a colleague's record grants nothing: \(offered)")
        #expect(offered[2] == offered[0], "a record without grants: the role decides")
        // Fired anyway on the colleague's record: refused without a request.
        let before = await fixture.harness.transport.requests.count
        let result = await model.perform(actionId: "delete-item", item: colleagues)
        #expect(result == .error(message: "Tu cuenta no tiene permiso para hacer esto."))
        #expect(await fixture.harness.transport.requests.count == before && model.confirmation == nil)
    }
}

@Suite("Forms and links a person meets")
@MainActor
struct FormAndLinkTests {
    @Test func aGradeOutsideItsRangeIsRefusedWithWordingWithoutGender() async throws {
        let model = try await Fixture().loaded("material-create")
        model.formState.setValue("99", for: "grade")
        await model.perform(actionId: "submit")
        #expect(model.formState.fieldErrors["grade"] == "Grado: un número de 1 a 11")
        #expect(model.formState.fieldErrors["title"] == "Título: campo obligatorio")
        model.formState.setValue("7", for: "grade")
        await model.perform(actionId: "submit")
        #expect(model.formState.fieldErrors["grade"] == nil)
    }

    @Test func aDetailWithoutItsIdIsNotFoundNotARetry() async throws {
        let model = try await Fixture().loaded("material-detail")
        #expect(model.failure == .notFound, "\(String(describing: model.failure))")
        #expect(model.failure?.isRetryable == false)
    }

}

/// The node and every node under it, list rows included.
func flattenAll(_ node: RenderNode) -> [RenderNode] {
    var nodes = [node]
    if case .list(_, let rows) = node.kind { for index in 0..<rows.count { nodes += flattenAll(rows.row(at: index)) } }
    return nodes + node.children.flatMap(flattenAll)
}
