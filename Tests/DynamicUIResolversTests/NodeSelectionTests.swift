import DynamicUIModels
import DynamicUIResolvers
import Foundation
import Testing

@Suite("Node documents: an api action picks one element of its result")
struct NodeSelectionTests {
    let result: JSONValue = [
        "resultCount": 3,
        "results": [
            ["wrapperType": "track", "trackId": 10, "trackName": "The show"],
            ["wrapperType": "podcastEpisode", "trackId": 11, "trackName": "One"],
            ["wrapperType": "podcastEpisode", "trackId": 12, "trackName": "Two"],
        ],
    ]

    func action(_ text: String) throws -> CompiledSelection? {
        let node = try ViewNode(
            json: try JSONReader().read(#"{"type": "screen", "props": {"title": "x", "onLoad": \#(text)}}"#))
        guard case .api(_, _, _, let select)? = try NodeCompiler().compile(node).actions["onLoad"] else { return nil }
        return select
    }

    @Test func theFirstElementWhoseFieldsMatchWithIdsComparedAsText() throws {
        let select = try #require(
            try action(
                #"{"actionType": "api", "endpoint": "/lookup", "resultKey": "lookup", "select": {"key": "episode", "from": "results", "where": {"trackId": "$.episodeId"}}}"#
            ))
        let context = DataContext([("episodeId", "12")], environment: EvaluationEnvironment(now: Date()))
        let wanted = try select.matching.evaluate(in: context)
        #expect(select.pick(from: result, values: wanted)["trackName"] == "Two", "\"12\" from a URL equals 12")
        #expect(select.pick(from: result, values: ["trackId": "99"]) == .null, "none: null, the page says not found")
        #expect(select.pick(from: result, values: ["trackId": .null]) == .null, "a missing id matches nothing")
        #expect(select.pick(from: "not an object", values: ["trackId": "12"]) == .null)
        #expect(select.pick(from: result, values: ["wrapperType": "podcastEpisode"])["trackId"] == 11, "the first")
    }

    @Test func aSelectionWithoutItsFieldsIsATypedErrorThatSaysWhere() throws {
        do {
            _ = try action(#"{"actionType": "api", "endpoint": "/lookup", "select": {"key": "episode"}}"#)
            Issue.record("decoded without 'where'")
        } catch let error as ModelDecodingError {
            #expect(error.location.description == "props.onLoad.select.where", "\(error)")
        }
        let written = try NodeAction(
            json: try JSONReader().read(
                #"{"actionType": "api", "endpoint": "/l", "select": {"key": "e", "from": "results", "where": {"trackId": 1}}}"#))
        #expect(try NodeAction(json: written.json) == written, "written back as it was read")
    }
}
