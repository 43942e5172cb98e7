#if ServerObservability && AsyncHTTPClient
import Foundation
import Logging
import OTel
import ServiceLifecycle
import SwiftApiDsl
import SwiftApiDslServerObservability

// The bootstrap the "Observability on servers" article shows, compiled here as it is written
// there. The test below makes the same backends without the process-wide bootstrap (a test
// process bootstraps at most once, and another suite already does).

/// A service's start: swift-otel exports its spans and metrics over OTLP/HTTP to `collector`,
/// and the client traces, counts and logs every call.
func startObservability(collector: String) throws -> (inventory: ApiClient, observability: some Service) {
    var configuration = OTel.Configuration.default
    configuration.serviceName = "orders"
    configuration.traces.otlpExporter.endpoint = "\(collector)/v1/traces"
    configuration.traces.otlpExporter.protocol = .httpProtobuf   // or .httpJSON
    configuration.metrics.otlpExporter.endpoint = "\(collector)/v1/metrics"
    configuration.metrics.otlpExporter.protocol = .httpProtobuf
    configuration.logs.enabled = false                             // logs go through `.logging` below
    let observability = try OTel.bootstrap(configuration: configuration)

    let inventory = ApiClient(baseUrl: URL(string: "https://inventory.internal/v1")!)
        .tracing()                                                 // InstrumentationSystem.tracer
        .metrics()                                                 // MetricsSystem.factory
        .logging(Logger(label: "inventory-api"))
    // Run `observability` in the service's ServiceGroup, beside the HTTP server: it exports in
    // the background and flushes what is left on graceful shutdown.
    return (inventory, observability)
}
#endif
