import Foundation
import SwiftApiDsl
import SwiftApiDslAsyncHTTPClient
import Testing

/// `TLSSettings` enforced by AsyncHTTPClient over real TLS on loopback (`Scripts/lib/tls.sh`):
/// a private CA, the system's roots or only the CA, expired and wrong-host certificates, mutual
/// TLS, redirects, and the refusal of pins.
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

    @Test func aCertificateForAnotherHostIsRefused() async throws {
        await #expect { try await client("TLS_WRONG_HOST_URL").tls(authority()).get("doc.json").perform() } throws: { isTrustFailure($0) }
    }

    @Test func aServerThatVerifiesClientsAnswersTheIdentityAndRefusesItsAbsence() async throws {
        var mutual = try authority()
        mutual.clientIdentity = try TLSServer.clientIdentity()
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
        wrong.clientIdentity = .init(pkcs12: try TLSServer.clientIdentity().pkcs12, password: "not-the-password")
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

    @Test func pinsAreRefusedBeforeAByteIsSent() async throws {
        var pinned = try authority()
        pinned.pins = ["127.0.0.1": ["sha256/" + (try TLSServer.value("TLS_SERVER_PIN"))]]
        let mark = TLSServer.uniqueMark()
        await #expect {
            try await client().tls(pinned).get("doc.json").queryItem(name: "test", mark).perform()
        } throws: { error in
            guard case .transport(_, let underlying as ApiClientError)? = error as? RequestError else { return false }
            return underlying.code == .tlsUnsupported
                && underlying.message == "AsyncHTTPClient takes no certificate verification callback: it cannot enforce pins "
                    + "for 127.0.0.1; nothing was sent. Trust only your authority instead (Docs/TLS.md)"
        }
        #expect(try !TLSServer.reached(mark))
    }
}
