// Apple platforms only: swift-corelibs-foundation raises no server-trust or client-certificate
// challenge a delegate could answer, so on Linux the transport refuses `TLSSettings` instead
// (URLSessionTransport.send). This file is type-checked only on Apple platforms.
#if !canImport(FoundationNetworking)
import Foundation
import Security

extension TLSSettings {
    /// The answer to `challenge`: server trust is evaluated against the anchors, the host name
    /// and the host's pins; a client-certificate challenge gets the identity. A server that is
    /// not trusted fails `exchange` with the reason and cancels the challenge, so the
    /// connection closes before the request is sent.
    func answer(_ challenge: URLAuthenticationChallenge, failing exchange: URLSessionExchange?)
        -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        let space = challenge.protectionSpace
        switch space.authenticationMethod {
        case NSURLAuthenticationMethodServerTrust:
            guard let trust = space.serverTrust else { return (.performDefaultHandling, nil) }
            do {
                try evaluate(trust, host: space.host)
                return (.useCredential, URLCredential(trust: trust))
            } catch {
                exchange?.fail(error)
                return (.cancelAuthenticationChallenge, nil)
            }
        case NSURLAuthenticationMethodClientCertificate:
            guard let credential = identityCredential() else { return (.performDefaultHandling, nil) }
            return (.useCredential, credential)
        default:
            return (.performDefaultHandling, nil)
        }
    }

    /// Evaluates `trust` for `host` with these anchors, then checks the host's pins against the
    /// chain the evaluation built.
    private func evaluate(_ trust: SecTrust, host: String) throws {
        SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString))
        if !certificateAuthorities.isEmpty || !trustsSystemRoots {
            let anchors = derCertificateAuthorities.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
            SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, !trustsSystemRoots)
        }
        var failure: CFError?
        guard SecTrustEvaluateWithError(trust, &failure) else {
            var info: [String: Any] = [NSLocalizedDescriptionKey: "the certificate of \(host) is not trusted"]
            if let failure { info[NSUnderlyingErrorKey] = failure }
            throw URLError(.serverCertificateUntrusted, userInfo: info)
        }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        try checkPins(host: host, chain: chain.map { SecCertificateCopyData($0) as Data })
    }
}

extension TLSSettings {
    /// The client identity as a credential, or `nil` when there is none or its archive or password is wrong.
    private func identityCredential() -> URLCredential? {
        var items: CFArray?
        let options = [kSecImportExportPassphrase as String: clientIdentityPassword] as CFDictionary
        guard let pkcs12 = clientIdentity, SecPKCS12Import(pkcs12 as CFData, options, &items) == errSecSuccess,
              let first = (items as? [[String: Any]])?.first,
              let found = first[kSecImportItemIdentity as String],
              CFGetTypeID(found as CFTypeRef) == SecIdentityGetTypeID()
        else { return nil }
        // The type was checked above: the cast cannot fail.
        let identity = found as! SecIdentity
        let intermediates = (first[kSecImportItemCertChain as String] as? [SecCertificate])?.dropFirst()
        return URLCredential(identity: identity, certificates: intermediates.map { Array($0) as [Any] }, persistence: .forSession)
    }
}
#endif
