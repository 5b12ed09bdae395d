//! The OpenAPI 3.1 document of the REST API, generated (utoipa) from the same Rust types the handlers
//! use, served at `GET /openapi.json`; `openapi.json` at the repository root is a copy a test keeps
//! equal to it. The tail formats of `POST /v1/discover?format=…` are described by the shapes below, one
//! per format (each is also type-checked against its vendor's SDK by `tests/clients/vendor_types.py`).

use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::decision::DecisionSource;
use crate::delivery::Format;
use crate::params::{
    Alternate, ApproveResponse, DiscoverParams, DiscoverResponse, HealthResponse, HeldTool, MatchKind, PinsResponse,
    ReloadResponse, ServerHit, ServerInfoResponse, ServersResponse, Status, ToolHit, ToolResponse,
};
use crate::risk::Risk;

/// Every error: `{"error": {"code", "message"}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// The code and message of an error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable code (`bad_query`, `not_found`, `unauthorized`, `busy`, …).
    pub code: String,
    /// For people.
    pub message: String,
}

/// `?format=openai_chat`: a Chat Completions `tool` message.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenaiChatMessage {
    /// Always `tool`.
    #[schema(value_type = String, pattern = "^tool$")]
    pub role: String,
    /// The `call_id` of the request.
    pub tool_call_id: String,
    /// The result text (definitions one JSON object per line, or the not-found message).
    pub content: String,
}

/// `?format=anthropic`: a Messages `tool_result` content block.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnthropicToolResult {
    /// Always `tool_result`.
    #[schema(value_type = String, pattern = "^tool_result$")]
    pub r#type: String,
    /// The `call_id` of the request.
    pub tool_use_id: String,
    /// One text block.
    pub content: Vec<TextBlock>,
}

/// A text content block.
#[derive(Debug, Serialize, ToSchema)]
pub struct TextBlock {
    /// Always `text`.
    pub r#type: String,
    /// The text.
    pub text: String,
}

/// `?format=openai_responses`: a Responses `tool_search_output` item with the new definitions.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenaiToolSearchOutput {
    /// Always `tool_search_output`.
    #[schema(value_type = String, pattern = "^tool_search_output$")]
    pub r#type: String,
    /// The `call_id` of the request.
    pub call_id: String,
    /// Always `client`.
    pub execution: String,
    /// Always `completed`.
    pub status: String,
    /// Function definitions (`type`, `name`, `description`, `parameters` verbatim, `strict: false`).
    #[schema(value_type = Vec<Object>)]
    pub tools: Vec<serde_json::Value>,
}

/// `?format=mcp`: an MCP `CallToolResult`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct McpCallToolResult {
    /// One text block.
    pub content: Vec<TextBlock>,
    /// The answer as structured content.
    #[schema(value_type = Object)]
    pub structured_content: serde_json::Value,
    /// Always false.
    pub is_error: bool,
}

/// What `POST /v1/discover` answers: the response itself, or with `?format=` that framework's message.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum DiscoverAnswer {
    /// Without `?format=` (or `format=json`).
    Json(DiscoverResponse),
    /// `format=openai_chat`.
    OpenaiChat(OpenaiChatMessage),
    /// `format=anthropic`.
    Anthropic(AnthropicToolResult),
    /// `format=openai_responses`.
    OpenaiResponses(OpenaiToolSearchOutput),
    /// `format=mcp`.
    Mcp(McpCallToolResult),
}

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "toolscout",
        description = "Tool discovery for LLM agents: the few MCP tool definitions a need calls for, or an honest not_found."
    ),
    paths(
        crate::rest::discover,
        crate::rest::servers,
        crate::rest::tool,
        crate::rest::health,
        crate::rest::metrics,
        crate::rest::openapi_json,
        crate::rest::reload,
        crate::rest::pins,
        crate::rest::approve
    ),
    components(schemas(
        DiscoverParams,
        DiscoverResponse,
        DiscoverAnswer,
        ToolHit,
        Alternate,
        ServerHit,
        Status,
        MatchKind,
        Risk,
        Format,
        ServersResponse,
        ServerInfoResponse,
        ToolResponse,
        HealthResponse,
        DecisionSource,
        PinsResponse,
        HeldTool,
        ApproveResponse,
        ReloadResponse,
        ErrorBody
    )),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

/// Declares the optional bearer token.
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The document as pretty JSON (what `GET /openapi.json` serves and `openapi.json` holds).
pub fn openapi_json() -> String {
    ApiDoc::openapi().to_pretty_json().expect("the OpenAPI document serializes")
}
