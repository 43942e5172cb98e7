import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SwiftApiDsl

/// `RequestBody.stream`: its chunks come once per sending, asynchronously; everything that
/// would read it synchronously says so with a code, and its text forms say what it is.
@Suite struct StreamedBodyTests {
    static func body(_ text: String, length: Int64?, repeatable: Bool) -> StreamedBody {
        StreamedBody(length: length, repeatable: repeatable) { ResponseBody(Data(text.utf8)) }
    }

    static func request(_ body: StreamedBody) -> TransportRequest {
        TransportRequest(url: URL(string: "https://api.example.com/uploads")!, method: .post, body: .stream(body))
    }

    /// The code of the ``ApiClientError`` that `body` throws; `nil` when it throws nothing or another error.
    static func code(_ body: () throws -> Void) -> ApiClientError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ApiClientError)?.code
        }
    }

    @Test func aRepeatableBodyGivesItsChunksEachTime() async throws {
        let body = Self.body("abc", length: 3, repeatable: true)
        for _ in 0..<2 {
            var data = Data()
            for try await chunk in try body.makeChunks() { data.append(chunk) }
            #expect(data == Data("abc".utf8))
        }
    }

    @Test func aBodyThatCanBeReadOnceRefusesASecondSending() throws {
        let body = Self.body("abc", length: nil, repeatable: false)
        let copy = body // the same body: copies share whether it was sent
        _ = try body.makeChunks()
        let error = #expect(throws: ApiClientError.self) { try copy.makeChunks() }
        #expect(error?.code == .streamedBodyUnreadable)
        #expect(body == copy)
        #expect(body != Self.body("abc", length: nil, repeatable: false))
    }

    @Test func synchronousReadersThrowTheCodeAndTheLengthIsTheAnnouncedOne() throws {
        let unknown = Self.request(Self.body("abc", length: nil, repeatable: true))
        #expect(Self.code { _ = try unknown.bodyData() } == .streamedBodyUnreadable)
        #expect(Self.code { _ = try unknown.makeBodyReader().next() } == .streamedBodyUnreadable)
        #expect(Self.code { _ = try unknown.body?.contentLength() } == .streamedBodyUnreadable)
        let known = Self.request(Self.body("abc", length: 3, repeatable: true))
        #expect(try known.body?.contentLength() == 3)
    }

    @Test func textFormsSayTheBodyIsStreamed() {
        let known = Self.request(Self.body("abc", length: 3, repeatable: true))
        let unknown = Self.request(Self.body("abc", length: nil, repeatable: true))
        #expect(known.curlDescription == "curl -X POST 'https://api.example.com/uploads' --data-binary @- # a streamed body of 3 bytes, to give on standard input")
        #expect(unknown.curlDescription.hasSuffix("--data-binary @- # a streamed body of unknown length, to give on standard input"))
        var dumped = ""
        dump(unknown, to: &dumped)
        #expect(dumped.contains("body: \"stream of unknown length\""))
        dumped = ""
        dump(known, to: &dumped)
        #expect(dumped.contains("body: \"stream of 3 bytes\""))
    }

    /// The chained and static spellings name the call; observers and middlewares read it.
    @Test func aNamedCallCarriesItsNameToMiddlewaresAndObservers() async throws {
        let seen = NamesSeen()
        let client = ApiClient(transport: InProcessTransport { _, body in
            body.finish()
            return (200, [:])
        }, baseUrl: URL(string: "https://api.example.com")!)
            .middleware(Middleware("names") { request, next in
                seen.append("middleware \(request.name ?? "-")")
                return try await next(request)
            })
            .observer { event in
                if case .prepared(let request) = event.kind { seen.append("prepared \(request.name ?? "-")") }
            }
        try await client.get("todos").name("listTodos").perform()
        try await client.get("todos").modifier(.name("first")).name("second").perform()
        try await client.get("todos").perform()
        #expect(seen.values == ["prepared listTodos", "middleware listTodos", "prepared second", "middleware second", "prepared -", "middleware -"])
    }

    /// `onEnd` runs each ending once, at the first of abort or close, and at once when late.
    @Test func endingsRunOnceWhenTheExchangeEnds() {
        let heard = NamesSeen()
        let aborted = ExchangeControl()
        aborted.onEnd { heard.append("a1") }
        aborted.onEnd { heard.append("a2") }
        aborted.abort(URLError(.timedOut))
        aborted.close()
        aborted.onEnd { heard.append("a3") }
        let closed = ExchangeControl()
        closed.onEnd { heard.append("c1") }
        #expect(heard.values == ["a1", "a2", "a3"])
        closed.close()
        closed.abort(CancellationError())
        #expect(heard.values == ["a1", "a2", "a3", "c1"])
    }

    /// A body read under a control passes every chunk and ends as its producer ends.
    @Test func chunksUnderAControlArriveWhole() async throws {
        let body = StreamedBody(length: nil, repeatable: false) {
            ResponseBody(AsyncStream<Data> { continuation in
                for text in ["ab", "cd", "e"] { continuation.yield(Data(text.utf8)) }
                continuation.finish()
            })
        }
        var data = Data()
        for try await chunk in try body.makeChunks(endingWith: ExchangeControl()) { data.append(chunk) }
        #expect(data == Data("abcde".utf8))
    }

    /// A producer that stalls holds the reader only until the exchange ends: an abort fails the
    /// read with its reason, and the producer's sequence is ended, not left waiting.
    @Test(.timeLimit(.minutes(1))) func anAbortEndsTheReadOfAStalledProducer() async throws {
        let (terminations, terminated) = AsyncStream<Void>.makeStream()
        let body = StreamedBody(length: nil, repeatable: false) {
            ResponseBody(AsyncStream<Data> { continuation in
                continuation.yield(Data("first".utf8))
                continuation.onTermination = { _ in terminated.yield() }
            })
        }
        let control = ExchangeControl()
        var chunks = try body.makeChunks(endingWith: control).makeAsyncIterator()
        #expect(try await chunks.next() == Data("first".utf8))
        control.abort(URLError(.timedOut))
        await #expect(throws: URLError(.timedOut)) { _ = try await chunks.next() }
        var ended = terminations.makeAsyncIterator()
        _ = await ended.next()
    }

    /// An exchange over (its answer read) stops a reading that is still going: the reader gets a
    /// cancellation, never the rest as if it were the whole body.
    @Test(.timeLimit(.minutes(1))) func theEndOfTheExchangeStopsTheReading() async throws {
        let body = StreamedBody(length: nil, repeatable: false) { ResponseBody(AsyncStream<Data> { _ in }) }
        let control = ExchangeControl()
        let chunks = try body.makeChunks(endingWith: control)
        control.close()
        await #expect(throws: CancellationError.self) { for try await _ in chunks {} }
    }

    /// Cancelling the task that reads the chunks aborts the exchange: a transport called directly,
    /// outside the pipeline's own cancellation handler, is not left waiting for a stalled producer.
    @Test(.timeLimit(.minutes(1))) func cancellingTheReaderAbortsTheExchange() async throws {
        let body = StreamedBody(length: nil, repeatable: false) { ResponseBody(AsyncStream<Data> { _ in }) }
        let control = ExchangeControl()
        let chunks = try body.makeChunks(endingWith: control)
        let reader = Task { for try await _ in chunks {} }
        reader.cancel()
        let result = await reader.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(control.isAborted)
    }

    /// A control that never ends (made to call a transport directly) is not kept alive by the
    /// reading it started.
    @Test func aControlThatNeverEndsIsReleased() throws {
        weak var released: ExchangeControl?
        do {
            let control = ExchangeControl()
            released = control
            _ = try Self.body("abc", length: 3, repeatable: true).makeChunks(endingWith: control)
        }
        #expect(released == nil)
    }

    /// The reading runs a megabyte ahead of the reader at most: with one chunk of 64 KiB taken,
    /// the producer is asked for 16 more (1 MiB queued), then not again until the reader goes on.
    @Test(.timeLimit(.minutes(1))) func theReadingStaysAMegabyteAhead() async throws {
        let pulled = NamesSeen()
        let body = StreamedBody(length: nil, repeatable: false) {
            ResponseBody(AsyncStream<Data>(unfolding: {
                guard pulled.values.count < 64 else { return nil }
                pulled.append("chunk")
                return Data(count: 64 * 1024)
            }))
        }
        var chunks = try body.makeChunks(endingWith: ExchangeControl()).makeAsyncIterator()
        _ = try await chunks.next()
        while pulled.values.count < 17 { try await Task.sleep(nanoseconds: 1_000_000) }
        // Time for a reading without a bound to ask for the rest; a bounded one stays at 17.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(pulled.values.count == 17)
        var count = 1
        while try await chunks.next() != nil { count += 1 }
        #expect(count == 64)
        #expect(pulled.values.count == 64)
    }

    final class NamesSeen: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func append(_ name: String) { lock.lock(); list.append(name); lock.unlock() }
        var values: [String] { lock.lock(); defer { lock.unlock() }; return list }
    }
}
