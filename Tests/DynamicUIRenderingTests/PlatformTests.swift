import DynamicUICatalog
import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

@Suite("Platform decisions on every platform and size class")
struct PlatformTests {
    static let combinations: [(RenderPlatform, SizeClass)] = RenderPlatform.allCases.flatMap { platform in
        SizeClass.allCases.map { (platform, $0) }
    }

    @Test(arguments: combinations)
    func capabilities(platform: RenderPlatform, sizeClass: SizeClass) {
        let capabilities = PlatformCapabilities(platform: platform, sizeClass: sizeClass)
        switch platform {
        case .ios:
            #expect(capabilities.sizeClass == .compact && capabilities.inputs == [.touch] && capabilities.hasHaptics)
            #expect(capabilities.navigationStyle == .tabs && !capabilities.supportsMultipleWindows)
            #expect(!capabilities.hasKeyboardShortcuts && !capabilities.prefersPopovers && capabilities.hasSwipeActions)
            #expect(!capabilities.showsInspector(for: .detail))
        case .ipad:
            #expect(capabilities.sizeClass == sizeClass && capabilities.supportsMultipleWindows && !capabilities.hasHaptics)
            #expect(capabilities.navigationStyle == (sizeClass == .regular ? .sidebar : .tabs))
            #expect(capabilities.showsInspector(for: .detail) == (sizeClass == .regular))
            #expect(capabilities.prefersPopovers == (sizeClass == .regular))
            #expect(!capabilities.hasKeyboardShortcuts)
            let withKeyboard = PlatformCapabilities(platform: .ipad, sizeClass: sizeClass, hasHardwareKeyboard: true)
            #expect(withKeyboard.hasKeyboardShortcuts && withKeyboard.hasHover && withKeyboard.hasSwipeActions)
        case .mac:
            #expect(
                capabilities.sizeClass == .regular && capabilities.inputs == [.pointer, .keyboard] && capabilities.hasMenuBar)
            #expect(capabilities.navigationStyle == .sidebar && capabilities.showsInspector(for: .detail))
            #expect(!capabilities.showsInspector(for: .list) && capabilities.hasHover && !capabilities.hasSwipeActions)
            #expect(capabilities.hasKeyboardShortcuts && capabilities.prefersPopovers)
        case .vision:
            #expect(capabilities.navigationStyle == .spatial && capabilities.inputs == [.gaze] && capabilities.hasHover)
            #expect(!capabilities.showsInspector(for: .detail) && !capabilities.hasHaptics)
        }
    }

    /// The EduGo screen `key` lowered with its demo data.
    static func tree(
        _ key: String, sizeClass: SizeClass = .compact, platform: RenderPlatform = .ios, form: FormSnapshot = FormSnapshot()
    ) throws -> RenderNode {
        try lowerEduGo(key, options: RenderOptions(sizeClass: sizeClass, platform: platform), form: form)
    }

    static func controls(_ node: RenderNode) -> [ControlNode] {
        var result: [ControlNode] = []
        if case .control(let control) = node.kind { result.append(control) }
        for child in node.children { result += controls(child) }
        return result
    }

    @Test(arguments: combinations)
    func theSignInFormChainsItsFieldsAndGoesOnTheLast(platform: RenderPlatform, sizeClass: SizeClass) throws {
        let tree = try Self.tree("app-login", sizeClass: sizeClass, platform: platform)
        #expect(FormFocus.order(in: tree) == ["email", "password"])
        let fields = Self.controls(tree).filter { $0.returnKey != nil && $0.type != .searchBar }
        #expect(fields.map(\.returnKey) == [.next, .go])
        #expect(fields.first?.nextField == "password" && fields.last?.nextField == nil)
        #expect(fields.last?.submitActionId == "submit-login" && fields.first?.submitActionId == nil)
    }

    @Test func aCreateFormEndsWithDoneAndSubmitsItsSaveAction() throws {
        let tree = try Self.tree("material-create")
        let order = FormFocus.order(in: tree)
        #expect(order.first == "title" && order.count >= 3, "\(order)")
        let fields = Self.controls(tree).filter { FormFocus.order(in: tree).contains($0.field ?? "") && $0.returnKey != nil }
        #expect(fields.dropLast().allSatisfy { $0.returnKey == .next })
        #expect(fields.last?.returnKey == .done)
        #expect(fields.last?.submitActionId == "submit", "\(String(describing: fields.last))")
        // After a failed submit the first field with an error takes the focus.
        let failed = try Self.tree(
            "material-create", form: FormSnapshot(errors: ["subject": "es obligatorio", "grade": "es obligatorio"]))
        #expect(FormFocus.firstError(in: failed) == "subject")
        #expect(FormFocus.firstError(in: tree) == nil)
    }

    @Test func searchBarsSayTheySearch() throws {
        let tree = try Self.tree("materials-list")
        let search = Self.controls(tree).filter { $0.type == .searchBar }
        #expect(search.allSatisfy { $0.returnKey == .search })
    }

    @Test(arguments: combinations)
    func rowsCarryTheirSwipeAndLongPressActions(platform: RenderPlatform, sizeClass: SizeClass) throws {
        let row = try Self.firstRow(try Self.tree("materials-list", sizeClass: sizeClass, platform: platform))
        #expect(row.actionId == "open-item")
        #expect(row.swipeActionIds == ["delete-item"] && row.contextActionIds == ["edit-item"])
        let screen = try edugo.screen("materials-list")
        #expect(
            RowAction.actions(row.swipeActionIds, of: screen) == [
                RowAction(id: "delete-item", title: "Eliminar", systemImage: "trash", isDestructive: true)
            ])
        #expect(RowAction.actions(row.contextActionIds, of: screen).map(\.title) == ["Editar"])
        let capabilities = PlatformCapabilities(platform: platform, sizeClass: sizeClass)
        // Touch gets swipe actions; pointer-only platforms find the same actions in the row's menu.
        #expect(capabilities.hasSwipeActions == (platform == .ios || platform == .ipad))
        #expect(!(row.swipeActionIds + row.contextActionIds).isEmpty, "\(row)")
    }

    static func firstRow(_ tree: RenderNode) throws -> RowNode {
        func find(_ node: RenderNode) -> RowNode? {
            if case .list(_, let rows) = node.kind, rows.count > 0, case .row(let row) = rows.row(at: 0).kind { return row }
            for child in node.children { if let row = find(child) { return row } }
            return nil
        }
        return try #require(find(tree))
    }
}

@Suite("The detail inspector")
struct InspectorTests {
    @Test func detailScreensMoveTheirSecondarySectionsToTheInspectorWhereThereIsOne() throws {
        let tree = try PlatformTests.tree("material-detail", sizeClass: .regular, platform: .mac)
        let (content, inspector) = InspectorLayout.split(tree)
        func sections(_ node: RenderNode) -> [String] {
            var titles: [String] = []
            if case .section(let header) = node.kind { titles.append(header ?? "") }
            for child in node.children { titles += sections(child) }
            return titles
        }
        let all = sections(tree)
        #expect(all.count >= 3, "\(all)")
        #expect(sections(content) == [all[0]])
        #expect(inspector.map { sections($0) }.flatMap { $0 } == Array(all.dropFirst()))
        #expect(content.nodeCount + inspector.map(\.nodeCount).reduce(0, +) == tree.nodeCount)
        // A screen with one section keeps it.
        let single = RenderNode(id: "s", kind: .section(header: "Uno"))
        #expect(InspectorLayout.split(single).inspector.isEmpty)
    }
}
