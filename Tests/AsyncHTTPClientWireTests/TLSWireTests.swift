#if AsyncHTTPClient
import Foundation
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import Testing

/// `TLSSettings` enforced by AsyncHTTPClient over real TLS on loopback (`Scripts/lib/tls.sh`):
/// a private CA, the system's roots or only the CA, expired and wrong-host certificates, mutual
/// TLS, pins (matching, rotated, wrong, on each redirect hop) and redirects.
@Suite struct TLSWireTests {
    static let document = "{\"id\": 1, \"title\": \"served over TLS\"}\n"

    func client(_ variable: String = "TLS_URL") throws -> ApiClient {
        ApiClient(transport: WireTransport.shared, baseUrl: try TLSServer.url(variable))
    }

    func authority() throws -> TLSSettings { TLSSettings(certificateAuthorities: [try TLSServer.authority()]) }

    /// Whether `error` is the transport stage's trust failure.
    func isTrustFailure(_ error: any Error) -> Bool {
        guard let error = error as? RequestError, case .transport = error else { return false }
        return error.isTrustFailure
    }

    @Test func aPrivateAuthorityIsTrustedWithItsAnchorBesideTheSystemsRoots() async throws {
        let response = try await client().tls(authority()).get("doc.json").perform()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.document)
    }

    @Test func aPrivateAuthorityIsRefusedWithoutItsAnchorAndNothingIsSent() async throws {
        let mark = TLSServer.uniqueMark()
        await #expect { try await client().get("doc.json").queryItem(name: "test", mark).perform() } throws: { isTrustFailure($0) }
        #expect(try !TLSServer.reached(mark))
    }

    @Test func onlyTheAuthorityGivenIsTrustedWithoutTheSystemsRoots() async throws {
        var only = try authority()
        only.trustsSystemRoots = false
        #expect(try await client().tls(only).get("doc.json").perform().statusCode == 200)

        let mark = TLSServer.uniqueMark()
        await #expect {
            try await client().tls(TLSSettings(trustsSystemRoots: false)).get("doc.json").queryItem(name: "test", mark).perform()
        } throws: { isTrustFailure($0) }
        #expect(try !TLSServer.reached(mark))
    }

    @Test func anExpiredCertificateIsRefused() async throws {
        await #expect { try await client("TLS_EXPIRED_URL").tls(authority()).get("doc.json").perform() } throws: { isTrustFailure($0) }
    }

    /// AsyncHTTPClient would try the connection again until its 10 s connect timeout: refused at
    /// once instead, the call fails with the trust failure, not with the 6 s idle timeout.
    @Test func aRefusedCertificateFailsAtOnceWithoutTheEnginesRetries() async throws {
        await #expect {
            try await client("TLS_EXPIRED_URL").tls(authority()).timeoutInterval(6).get("doc.json").perform()
        } throws: { isTrustFailure($0) }
    }

    @Test func aCertificateForAnotherHostIsRefused() async throws {
        await #expect { try await client("TLS_WRONG_HOST_URL").tls(authority()).get("doc.json").perform() } throws: { isTrustFailure($0) }
    }

    @Test func aServerThatVerifiesClientsAnswersTheIdentityAndRefusesItsAbsence() async throws {
        var mutual = try authority()
        (mutual.clientIdentity, mutual.clientIdentityPassword) = try TLSServer.clientIdentity()
        let answered = try await client("TLS_MUTUAL_URL").tls(mutual).get("doc.json").perform()
        #expect(answered.statusCode == 200)
        #expect(String(decoding: answered.body, as: UTF8.self) == Self.document)

        // nginx finishes the handshake and answers `400 No required SSL certificate was sent`.
        let refused = try await client("TLS_MUTUAL_URL").tls(authority()).get("doc.json").perform()
        #expect(refused.statusCode == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("No required SSL certificate was sent"))
    }

    @Test func anIdentityThatCannotBeReadFailsBeforeSending() async throws {
        var wrong = try authority()
        wrong.clientIdentity = try TLSServer.clientIdentity().pkcs12
        wrong.clientIdentityPassword = "not-the-password"
        await #expect {
            try await client("TLS_MUTUAL_URL").tls(wrong).get("doc.json").perform()
        } throws: { error in
            guard case .transport(_, let underlying as ApiClientError)? = error as? RequestError else { return false }
            return underlying.code == .tlsUnsupported && !underlying.message.contains("not-the-password")
        }
    }

    @Test func aRedirectHopCarriesTheSettingsToItsOwnConnection() async throws {
        let response = try await client().tls(authority()).get("redirect").perform()
        #expect(response.statusCode == 200)
        #expect(response.httpResponse.url?.path == "/doc.json")
        #expect(String(decoding: response.body, as: UTF8.self) == Self.document)
    }

    func pinned(_ pins: [String: [String]]) throws -> TLSSettings {
        var settings = try authority()
        settings.pins = pins
        return settings
    }

    func serverPin() throws -> String { "sha256/" + (try TLSServer.value("TLS_SERVER_PIN")) }

    /// Whether `error` is the transport stage's `.pinMismatch` with `message`.
    func isPinMismatch(_ error: any Error, message: String) -> Bool {
        guard let error = error as? RequestError, case .transport(_, let underlying as ApiClientError) = error else { return false }
        return underlying.code == .pinMismatch && underlying.message == message && error.isTrustFailure
    }

    @Test func aPinThatMatchesTheServersKeyIsAccepted() async throws {
        let response = try await client().tls(pinned(["127.0.0.1": [serverPin()]])).get("doc.json").perform()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.document)
    }

    @Test func rotationWithTwoPinsAcceptsEitherKey() async throws {
        let next = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        #expect(try await client().tls(pinned(["127.0.0.1": [next, serverPin()]])).get("doc.json").perform().statusCode == 200)
        #expect(try await client().tls(pinned(["*.0.0.1": [serverPin()]])).get("doc.json").perform().statusCode == 200)
    }

    @Test func aWrongPinIsRefusedBeforeAByteIsSent() async throws {
        let wrong = Data(repeating: 1, count: 32).base64EncodedString()
        let (mark, presented) = (TLSServer.uniqueMark(), try serverPin())
        await #expect {
            try await client().tls(pinned(["127.0.0.1": [wrong]])).get("doc.json").queryItem(name: "test", mark).perform()
        } throws: { error in
            isPinMismatch(error, message: "the certificates of 127.0.0.1 match none of its pins: sha256/\(wrong); the chain presented: \(presented)")
        }
        #expect(try !TLSServer.reached(mark))
    }

    @Test func theAuthoritysPinIsRefusedHereWhereOnlyTheLeafIsSeen() async throws {
        let (authorityPin, presented) = (try TLSServer.value("TLS_CA_PIN"), try serverPin())
        await #expect {
            try await client().tls(pinned(["127.0.0.1": [authorityPin]])).get("doc.json").perform()
        } throws: { error in
            isPinMismatch(error, message: "the certificates of 127.0.0.1 match none of its pins: sha256/\(authorityPin); the chain presented: \(presented)")
        }
    }

    @Test func aRedirectHopIsCheckedAgainstThePinsOfItsOwnHost() async throws {
        let (wrong, presented) = (Data(repeating: 2, count: 32).base64EncodedString(), try serverPin())
        await #expect {
            try await client().tls(pinned(["127.0.0.1": [serverPin()], "localhost": [wrong]])).get("redirect-to-localhost").perform()
        } throws: { error in
            isPinMismatch(error, message: "the certificates of localhost match none of its pins: sha256/\(wrong); the chain presented: \(presented)")
        }
        let both = try await client().tls(pinned(["127.0.0.1": [serverPin()], "localhost": [serverPin()]]))
            .get("redirect-to-localhost").perform()
        #expect(both.httpResponse.url?.host == "localhost")
        #expect(String(decoding: both.body, as: UTF8.self) == Self.document)
    }

    @Test func aRedirectToAHostWithoutPinsIsCheckedByTheAnchorsOnly() async throws {
        let response = try await client().tls(pinned(["127.0.0.1": [serverPin()]])).get("redirect-to-localhost").perform()
        #expect(response.statusCode == 200)
        #expect(response.httpResponse.url?.host == "localhost")
    }
}
#endif
