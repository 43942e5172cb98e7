import Foundation
@testable import SwiftApiDsl
import Testing

/// RFC 8288 Link headers as servers write them.
@Suite struct LinkHeaderTests {
    @Test func findsNextAmongSeveralLinksInAnyOrder() {
        let header = #"<https://h/items?page=1>; rel="prev", <https://h/items?page=3>; rel="next", <https://h/items?page=9>; rel="last""#
        #expect(LinkHeader.target(of: "next", in: header) == "https://h/items?page=3")
        #expect(LinkHeader.target(of: "last", in: header) == "https://h/items?page=9")
        #expect(LinkHeader.target(of: "first", in: header) == nil)
    }

    @Test func understandsRelationListsUnquotedValuesAndCase() {
        #expect(LinkHeader.target(of: "next", in: #"</a?x=1,2>; title="a, b; c"; rel="last NEXT""#) == "/a?x=1,2")
        #expect(LinkHeader.target(of: "next", in: "</b>; rel=next") == "/b")
        #expect(LinkHeader.target(of: "next", in: #"</c>; rel="nextpage", </d>; rel="next""#) == "/d")
    }

    @Test func firstRelParameterWinsAndBrokenHeadersGiveNothing() {
        #expect(LinkHeader.target(of: "next", in: #"</a>; rel="prev"; rel="next""#) == nil)
        #expect(LinkHeader.target(of: "next", in: "") == nil)
        #expect(LinkHeader.target(of: "next", in: "<unterminated; rel=next") == nil)
    }

    /// Found by Fuzz/Harnesses/LinkHeader.swift: a `<` or `"` followed by a combining mark is
    /// one `Character`, which hid the link (or, in a title, every link after it).
    @Test func delimiterFollowedByACombiningMarkStillDelimits() {
        let found = "<> ;rel=\"first\" ;type=text/html,<\u{06}\u{06}\u{06}\u{06}\u{06}\u{06}> ;rel=\"nextpage nextpage\","
            + "<\u{32F}\u{06}\u{FFFD}\u{FFFD}\u{0}> ; rel=\"next\",<>,<>"
        #expect(LinkHeader.target(of: "next", in: found) == "\u{32F}\u{06}\u{FFFD}\u{FFFD}\u{0}")
        #expect(LinkHeader.target(of: "next", in: "</a>; title=\"\u{301}x\", </b>; rel=next") == "/b")
    }
}
