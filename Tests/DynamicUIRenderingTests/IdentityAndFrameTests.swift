import DynamicUIModels
import DynamicUIRendering
import DynamicUIResolvers
import Foundation
import Testing

@Suite("What SwiftUI identifies views by, and the frames server styles ask for")
struct IdentityAndFrameTests {
    @Test func keyedElementsKeepTheirIdsWhenOthersComeAndGo() {
        let before = Keyed.list(["home", "search", "home", "profile"]) { $0 }
        #expect(before.map(\.id) == ["home", "search", "home#2", "profile"], "two tabs on one screen are still two")
        let after = Keyed.list(["inbox", "home", "search", "home", "profile"]) { $0 }
        #expect(Set(after.map(\.id)).count == after.count)
        for element in before where element.id != "home#2" {
            #expect(after.contains { $0.id == element.id && $0.element == element.element }, "\(element.id) kept its id")
        }
        #expect(after.map(\.index) == Array(0..<5))
    }

    @Test func rowIdsComeWithoutBuildingRows() {
        let rows = LazyRows(count: 1_000, id: { "row-\($0 % 500)" }) { RenderNode(id: "r\($0)", kind: .divider) }
        let ids = rows.ids
        #expect(ids.count == 1_000 && Set(ids).count == 1_000, "repeated data ids are made unique")
        #expect(ids[0] == "row-0" && ids[500] == "row-0#500")
        #expect(rows.rowsBuilt == 0)
    }

    @Test func aFixedWidthIsTheMostANodeTakesNeverMoreThanTheSpace() {
        let frame = NodeFrame(style: NodeStyle(width: .points(600)), holdsText: true, accessibilityTextSize: false)
        #expect(frame.idealWidth == 600 && frame.maxWidth == 600, "ideally 600 pt, narrower on a phone")
        #expect(frame.height == nil && frame.minHeight == nil)
        let filling = NodeFrame(style: NodeStyle(width: .infinity), holdsText: false, accessibilityTextSize: false)
        #expect(filling.maxWidth == .infinity && filling.idealWidth == nil)
    }

    @Test func aFixedHeightAroundTextGrowsAtAccessibilitySizes() {
        let style = NodeStyle(height: .points(44))
        let regular = NodeFrame(style: style, holdsText: true, accessibilityTextSize: false)
        #expect(regular.height == 44 && regular.minHeight == nil, "as designed at the usual sizes")
        let large = NodeFrame(style: style, holdsText: true, accessibilityTextSize: true)
        #expect(large.height == nil && large.minHeight == 44, "text grows past it instead of being cut")
        let image = NodeFrame(style: style, holdsText: false, accessibilityTextSize: true)
        #expect(image.height == 44, "an image keeps its height")
    }

    @Test func lengthsFromTheWireAreClamped() {
        let hostile = NodeStyle(
            width: .points(-20), height: .points(.infinity), maxWidth: .points(1e300), maxHeight: .points(.nan))
        let frame = NodeFrame(style: hostile, holdsText: true, accessibilityTextSize: false)
        #expect(frame.idealWidth == nil, "a negative width is dropped")
        #expect(frame.maxWidth == NodeFrame.largestLength && frame.height == NodeFrame.largestLength)
        #expect(frame.maxHeight == nil)
        #expect(NodeFrame(style: nil, holdsText: false, accessibilityTextSize: true).isEmpty)
    }

    @Test func anImageOnlyButtonSaysWhatItDoes() throws {
        let document = try ViewNode(
            json: try JSONReader().read(
                #"""
                {"type": "hstack", "children": [
                  {"type": "button", "props": {"label": {"type": "image", "props": {"source": "system:play.fill"}},
                    "action": {"actionType": "setState", "key": "playing", "value": true}}},
                  {"type": "button", "props": {"label": {"type": "image",
                    "props": {"source": "system:square.and.arrow.up", "accessibilityLabel": "Compartir"}},
                    "action": {"actionType": "setState", "key": "share", "value": true}}},
                  {"type": "button", "props": {"label": {"type": "text", "props": {"content": "Suscribirse"}},
                    "action": {"actionType": "setState", "key": "s", "value": true}}}
                ]}
                """#))
        let renderer = NodeRenderer(theme: Theme(), library: ComponentLibrary(), components: [:])
        let context = DataContext([], environment: environment)
        let rendered = renderer.render(try NodeCompiler().compile(document), context: context, name: "doc")
        let buttons = flatten(rendered.root).filter { if case .button = $0.kind { true } else { false } }
        #expect(buttons.map { $0.accessibility?.label } == [context.environment.strings(.play), "Compartir", nil])
        #expect(buttons.allSatisfy { $0.accessibility?.traits == ["button"] })
    }

    @Test func nodesThatDrawTextAreKnownWithoutBuildingRows() {
        let text = RenderNode(id: "t", kind: .text("Hola", style: .body, lineLimit: nil))
        let card = RenderNode(id: "c", kind: .stack(axis: .vertical, spacing: nil, alignment: nil, lazy: false), children: [text])
        let picture = RenderNode(id: "i", kind: .image(source: "photo", isSymbol: true, contentMode: nil))
        #expect(card.holdsText && !picture.holdsText)
    }
}
