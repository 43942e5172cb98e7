#if ServerObservability && AsyncHTTPClient
import Foundation
import InMemoryTracing
import Tracing

/// An in-memory tracer that propagates W3C trace context: spans as `InMemoryTracer` records
/// them (with W3C-sized hexadecimal ids), `traceparent` as a W3C tracer (swift-otel's) sends it.
struct W3CInMemoryTracer: Tracer {
    let recorder = InMemoryTracer(idGenerator: .init(
        nextTraceID: { W3CInMemoryTracer.hex(bytes: 16) },
        nextSpanID: { W3CInMemoryTracer.hex(bytes: 8) }
    ))

    static func hex(bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Carrier == Inject.Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Carrier == Extract.Carrier {}
}

extension SpanAttributes {
    /// The attribute's text, whatever its kind (`"200"` for `.int64(200)`); `nil` when unset.
    func text(_ name: String) -> String? {
        guard let value = self[name]?.toSpanAttribute() else { return nil }
        switch value {
        case .string(let value): return value
        case .int64(let value): return String(value)
        case .int32(let value): return String(value)
        case .bool(let value): return String(value)
        case .double(let value): return String(value)
        default: return "\(value)"
        }
    }
}
#endif
