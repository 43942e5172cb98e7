#if OpenAPI && AsyncHTTPClient
import Foundation
import GeneratedUploadClient
import OpenAPIRuntime

/// The upload every transport runs against Label Studio: a new project (a JSON body), a file of
/// tasks imported into it as multipart/form-data, then the project's tasks listed.
struct UploadScenario {
    /// What one transport got back; the project's id differs from run to run and is left out.
    struct Outcome: Equatable, CustomStringConvertible {
        /// `POST /api/projects/`: the title of the new project, as the server stored it.
        var title = ""
        /// `POST /api/projects/{id}/import`: the tasks the server made from the file, the files it
        /// stored, and the columns it found in them.
        var taskCount: Int?
        var fileUploads = 0
        var dataColumns: [String] = []
        var foundFormats: [String: Int] = [:]
        /// `GET /api/projects/{id}/tasks/`: each task's data, as JSON with sorted keys, by task id.
        var tasks: [String] = []

        var description: String {
            "title \(title), imported \(taskCount.map(String.init) ?? "nil") tasks from \(fileUploads) file(s) with columns \(dataColumns) and formats \(foundFormats), listed \(tasks)"
        }
    }

    struct Unexpected: Error, CustomStringConvertible {
        let description: String
    }

    /// The uploaded file: three tasks, one with text outside ASCII and one with a quote.
    static let file = #"[{"text": "first task"}, {"text": "naïve café ☕"}, {"text": "a \"quoted\" line"}]"#

    let client: Client

    func run() async throws -> Outcome {
        var outcome = Outcome()
        let request = Components.Schemas.ProjectRequest(
            title: "Upload by a generated client",
            labelConfig: #"<View><Text name="text" value="$text"/></View>"#
        )
        let project = try await client.apiProjectsCreate(body: .json(request)).created.body.json
        outcome.title = project.title ?? "nil"

        let part = Operations.ApiProjectsImportCreate.Input.Body.MultipartFormPayload.file(
            .init(payload: .init(body: HTTPBody(Self.file)), filename: "tasks.json")
        )
        let imported = try await client.apiProjectsImportCreate(
            path: .init(id: project.id),
            body: .multipartForm(MultipartBody([part]))
        )
        guard case .created(let created) = imported else {
            throw Unexpected(description: "the import answered \(imported)")
        }
        let answer = try created.body.json
        outcome.taskCount = answer.taskCount
        outcome.fileUploads = answer.fileUploadIds?.count ?? 0
        outcome.dataColumns = answer.dataColumns ?? []
        outcome.foundFormats = answer.foundFormats?.additionalProperties ?? [:]

        let listed = try await client.apiProjectsTasksList(path: .init(id: project.id)).ok.body.json
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        outcome.tasks = try listed.sorted { $0.id < $1.id }.map { task in
            String(decoding: try encoder.encode(task.data), as: UTF8.self)
        }
        return outcome
    }
}
#endif
