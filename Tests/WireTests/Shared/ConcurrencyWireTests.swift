#if WIRE_SUITES
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SwiftApiDsl

/// One client, shared by many tasks.
@Suite struct ConcurrencyWireTests {
    @Test func twoHundredConcurrentRequestsThroughOneClientAllSucceed() async throws {
        let client = try HttpBin.client("/anything").httpStatusCodeRange().bearer("shared")
        let echoes = try await withThrowingTaskGroup(of: (Int, Echo).self) { group in
            for index in 0..<200 {
                group.addTask { (index, try await client.get("item/\(index)").queryItem(name: "n", String(index)).perform()) }
            }
            return try await group.reduce(into: [Int: Echo]()) { $0[$1.0] = $1.1 }
        }
        #expect(echoes.count == 200)
        for (index, echo) in echoes {
            #expect(echo.args == ["n": .one(String(index))])
            #expect(echo.header("Authorization") == "Bearer shared")
        }
    }

    @Test func clientsSpecialisedFromOneBaseInManyTasksStayIndependent() async throws {
        let base = try HttpBin.client("/anything")
        let agents = try await withThrowingTaskGroup(of: (String, String?).self) { group in
            for index in 0..<20 {
                group.addTask {
                    let agent = "agent-\(index)"
                    let echo: Echo = try await base.userAgent(agent).get("x").perform()
                    return (agent, echo.header("User-Agent"))
                }
            }
            return try await group.reduce(into: [(String, String?)]()) { $0.append($1) }
        }
        #expect(agents.count == 20)
        for (sent, received) in agents { #expect(sent == received) }
    }
}
#endif
