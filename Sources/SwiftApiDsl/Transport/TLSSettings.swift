import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a client trusts and presents over TLS: private certificate authorities, public-key pins
/// per host, and a client certificate for mutual TLS.
///
/// ```swift
/// let client = ApiClient(baseUrl: url).tls(TLSSettings(
///     certificateAuthorities: [companyRootPEM],
///     pins: ["api.example.com": ["sha256/current-key-base64=", "sha256/next-key-base64="]],
///     clientIdentity: p12Data, clientIdentityPassword: p12Password))
/// ```
/// Every request carries them (``TransportRequest/tls``), each redirect hop too, checked against
/// its own host's pins; a host no pattern matches is checked against the trust anchors only.
/// What each engine enforces (<doc:TLS>): URLSession on Apple platforms, everything, in its
/// delegate; AsyncHTTPClient, all of it, pins against the leaf certificate's key only; URLSession
/// on Linux nothing, so it refuses any setting before a byte is sent (an ``ApiClientError`` with
/// `.tlsUnsupported`). A pin that fails is `.pinMismatch`.
public struct TLSSettings: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Certificates of authorities to trust (DER, or PEM holding one or more), e.g. a private CA.
    public var certificateAuthorities: [Data]
    /// Whether the system's trusted roots count too (the default); `false` trusts only
    /// ``certificateAuthorities``.
    public var trustsSystemRoots: Bool
    /// Per host pattern (`api.example.com`, or `*.example.com` for one label more), the pins:
    /// base64 SHA-256 digests of a certificate's SubjectPublicKeyInfo, `sha256/` in front or not.
    /// A chain passes when any of its certificates matches any pin: give two to rotate keys.
    public var pins: [String: [String]]
    /// The certificate and key to present when the server asks for one, as a PKCS #12 archive
    /// (`.p12`, `.pfx`: the certificate, its key, and any intermediates).
    public var clientIdentity: Data?
    /// The password of ``clientIdentity``; never part of a description.
    public var clientIdentityPassword: String

    /// Settings from their parts; the defaults change nothing.
    public init(certificateAuthorities: [Data] = [], trustsSystemRoots: Bool = true, pins: [String: [String]] = [:],
                clientIdentity: Data? = nil, clientIdentityPassword: String = "") {
        self.certificateAuthorities = certificateAuthorities
        self.trustsSystemRoots = trustsSystemRoots
        self.pins = pins
        self.clientIdentity = clientIdentity
        self.clientIdentityPassword = clientIdentityPassword
    }

    /// What is set, without the identity's password.
    public var description: String {
        "TLSSettings(certificateAuthorities: \(certificateAuthorities.count), trustsSystemRoots: \(trustsSystemRoots), "
            + "pins: \(pins.keys.sorted()), clientIdentity: \(clientIdentity.map { "PKCS #12, \($0.count) bytes" } ?? "none"))"
    }

    /// As ``description``: `dump` shows no password either.
    public var customMirror: Mirror { Mirror(self, children: ["settings": description]) }
}

extension TLSSettings {
    /// The pins of `host`: an exact pattern first, then `*.` patterns that match one label more.
    func pins(for host: String) -> [String]? {
        let host = host.lowercased()
        var wildcard: [String]?
        for (pattern, pins) in self.pins {
            let pattern = pattern.lowercased()
            if pattern == host { return pins }
            if pattern.hasPrefix("*."), host.hasSuffix(pattern.dropFirst()),
               !host.dropLast(pattern.count - 1).contains("."), host.count > pattern.count - 1 {
                wildcard = pins
            }
        }
        return wildcard
    }

    /// Checks `chain` (certificates as DER, leaf first) against the pins of `host`, if it has
    /// any: it passes when one certificate's SubjectPublicKeyInfo digest is one of them, and
    /// throws an ``ApiClientError`` with `.pinMismatch` otherwise. For a transport of your own:
    /// call it once the handshake has verified the chain, before the request is written.
    public func checkPins(host: String, chain: [Data]) throws {
        guard let expected = pins(for: host) else { return }
        let wanted = Set(expected.map { $0.hasPrefix("sha256/") ? String($0.dropFirst(7)) : $0 })
        let found = chain.compactMap { Self.subjectPublicKeyInfo(ofCertificate: $0) }
            .map { Data(SHA256.digest($0)).base64EncodedString() }
        guard found.contains(where: wanted.contains) else {
            throw ApiClientError(.pinMismatch, message: "the certificates of \(host) match none of its pins: "
                                 + wanted.sorted().map { "sha256/\($0)" }.joined(separator: ", "))
        }
    }

    /// The DER SubjectPublicKeyInfo of a DER X.509 certificate, or `nil` when it is not one:
    /// Certificate → tbsCertificate → [version], serial, signature, issuer, validity, subject, SPKI.
    static func subjectPublicKeyInfo(ofCertificate der: Data) -> Data? {
        let bytes = [UInt8](der)
        guard let certificate = element(in: bytes, at: 0), let tbs = element(in: bytes, at: certificate.content) else { return nil }
        var offset = tbs.content
        if bytes.indices.contains(offset), bytes[offset] == 0xA0, let version = element(in: bytes, at: offset) { offset = version.end }
        for _ in 0..<5 { // serial, signature, issuer, validity, subject
            guard let skipped = element(in: bytes, at: offset) else { return nil }
            offset = skipped.end
        }
        guard let spki = element(in: bytes, at: offset), bytes[offset] == 0x30 else { return nil }
        return Data(bytes[offset..<spki.end])
    }

    /// The DER element at `offset`: where its content starts and where it ends.
    private static func element(in bytes: [UInt8], at offset: Int) -> (content: Int, end: Int)? {
        guard offset + 1 < bytes.count else { return nil }
        var length = Int(bytes[offset + 1])
        var content = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, content + count <= bytes.count else { return nil }
            length = bytes[content..<content + count].reduce(0) { $0 << 8 | Int($1) }
            content += count
        }
        guard content + length <= bytes.count else { return nil }
        return (content, content + length)
    }

    /// The certificates of ``certificateAuthorities`` as DER: each PEM block decoded, DER kept.
    var derCertificateAuthorities: [Data] {
        certificateAuthorities.flatMap { data -> [Data] in
            guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") else { return [data] }
            return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
                let base64 = block.components(separatedBy: "-----END CERTIFICATE-----")[0].filter { !$0.isWhitespace }
                return Data(base64Encoded: base64)
            }
        }
    }
}

extension RequestModifier {
    /// Sets what the request trusts and presents over TLS; see ``TLSSettings``. A later `tls`
    /// replaces an earlier one, so a request overrides its client.
    public static func tls(_ settings: TLSSettings) -> RequestModifier {
        .init(editing: { $0.tls = settings })
    }
}

extension RequestModifiable {
    /// Sets what the request trusts and presents over TLS: private CAs, pins, a client certificate.
    public func tls(_ settings: TLSSettings) -> Self { modifier(.tls(settings)) }
}
