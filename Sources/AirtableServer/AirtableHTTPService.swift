import HTTPServer

extension AirtableAPI {
    /// Answers an HTTP request: the bridge between the socket server and the API layer.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let response = await handle(APIRequest(method: request.method, target: request.target,
                                               headers: request.headers.map { ($0.name, $0.value) }, body: request.body))
        return HTTPResponse(status: response.status, headers: HTTPHeaders(response.headers), body: response.body)
    }
}
