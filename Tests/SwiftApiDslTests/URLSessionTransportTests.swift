import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

@Suite struct URLSessionTransportTests {
    @Test func theSessionHasNoURLCache() {
        // Caching is the library's own HTTPCache, on every platform (nothing cached twice); on
        // Linux, corelibs also traps when a request is cancelled during its cache lookup.
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        #expect(URLSessionTransport(configuration: configuration).session.configuration.urlCache == nil)
        #expect(URLSessionTransport().session.configuration.urlCache == nil)
        // The configuration given is left as it was.
        #expect(configuration.urlCache != nil)
    }
}
