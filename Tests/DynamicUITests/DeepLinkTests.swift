import Foundation
import Testing

@testable import DynamicUI

/// Deep links read as values: which are accepted, which parameters they carry, and where they
/// go, decided without a runtime.
@Suite("Deep links")
struct DeepLinkTests {
    static let schemes: Set<String> = ["edugo"]
    static let parameters: [String: Set<String>] = ["material-detail": ["id"]]

    static func link(_ text: String) -> DeepLink? {
        DeepLink(URL(string: text)!, schemes: schemes, parameters: parameters)
    }

    @Test func onlyAConfiguredSchemeOpeningAWellFormedScreenIsRead() {
        #expect(Self.link("edugo://screen/materials-list")?.screenKey == "materials-list")
        #expect(Self.link("EDUGO://screen/materials-list")?.screenKey == "materials-list")
        for refused in [
            "https://screen/materials-list", "edugo://settings/materials-list", "edugo://screen/",
            "edugo://screen/Materials", "edugo://screen/-list", "edugo://screen/a/b",
            "edugo://screen/" + String(repeating: "a", count: 65),
        ] {
            #expect(Self.link(refused) == nil, "\(refused)")
        }
        #expect(Self.link("edugo://screen/" + String(repeating: "a", count: 64)) != nil)
    }

    @Test func onlyTheScreensDeclaredParametersAreKept() {
        #expect(Self.link("edugo://screen/material-detail?id=m-1&role=admin")?.params == ["id": "m-1"])
        #expect(Self.link("edugo://screen/materials-list?id=m-1")?.params == [:])
    }

    @Test func aRootIsShownAndADeclaredScreenPushedAnythingElseRefused() {
        let roots: Set<String> = ["dashboard-student", "materials-list"]
        #expect(Self.link("edugo://screen/materials-list")?.destination(roots: roots, linkable: nil) == .root("materials-list"))
        #expect(
            Self.link("edugo://screen/material-detail?id=m-1")?.destination(roots: roots, linkable: ["material-detail"])
                == .pushed("material-detail", params: ["id": "m-1"]))
        // Not a root of the role's navigation, and not declared for links: the guardian's link
        // to the directory goes nowhere.
        #expect(Self.link("edugo://screen/users-list")?.destination(roots: roots, linkable: ["material-detail"]) == nil)
        #expect(Self.link("edugo://screen/material-detail?id=m-1")?.destination(roots: roots, linkable: nil) == nil)
        // A root with parameters is a record's screen, pushed only when declared.
        let parameterized = DeepLink(
            URL(string: "edugo://screen/materials-list?id=x")!, schemes: Self.schemes,
            parameters: ["materials-list": ["id"]])
        #expect(parameterized?.destination(roots: roots, linkable: nil) == nil)
        #expect(
            parameterized?.destination(roots: roots, linkable: ["materials-list"])
                == .pushed("materials-list", params: ["id": "x"]))
    }
}
