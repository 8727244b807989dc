//! The provider importers: Bedrock Converse, OpenAI Responses, Gemini / Vertex, and
//! `fromModelResponse`, which picks one by the response's shape. Each reads its options
//! and arguments, calls one core function and converts the result.

use crate::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A host's snapshot for a provider importer: the source id it is catalogued under and the text the host holds. */
export interface HostSource { sourceId: string; text: string; title?: string; locator?: string; }
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "Record<string, unknown> | string")]
    pub type JsProviderJson;
    #[wasm_bindgen(typescript_type = "ProviderOptions")]
    pub type JsProviderOptions;
    #[wasm_bindgen(typescript_type = "ModelResponseOptions")]
    pub type JsModelResponseOptions;
    #[wasm_bindgen(typescript_type = "ProviderImport")]
    pub type JsProviderImport;
    #[wasm_bindgen(typescript_type = "LocatedAnnotation")]
    pub type JsLocatedAnnotation;
}

type Importer = fn(&Value, &Value, &evidence_check::import::provider::ProviderOptions) -> Result<evidence_check::import::provider::ProviderImport, evidence_check::error::ContractError>;

fn provider_import(importer: Importer, request: JsProviderJson, response: JsProviderJson, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    // No options at all reads as every default: the core refuses the missing scope.
    let read = options_arg::<evidence_check::options::ProviderOptions>(Some(options.into()), Lang::default())?;
    let lang = read.lang_or(Lang::default());
    let core = read.provider_import().in_lang(lang)?;
    let request = json_value_arg(&request.into(), "request", lang)?;
    let response = json_value_arg(&response.into(), "response", lang)?;
    typed(&importer(&request, &response, &core).in_lang(lang)?)
}

/// A bundle from a Bedrock Converse request and response (`citationsContent`), checked
/// against the host's snapshots, and every citation it could not check.
#[wasm_bindgen(js_name = fromBedrockResponse)]
pub fn from_bedrock_response(request: JsProviderJson, response: JsProviderJson, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    provider_import(evidence_check::import::bedrock::from_bedrock_response, request, response, options)
}

/// A bundle from an OpenAI Responses API request and response (`output_text` annotations
/// and `file_search_call.results`), and every citation it could not check.
#[wasm_bindgen(js_name = fromOpenAIResponse)]
pub fn from_openai_response(request: JsProviderJson, response: JsProviderJson, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    provider_import(evidence_check::import::openai::from_openai_response, request, response, options)
}

/// A bundle from a Gemini / Vertex generateContent request and response
/// (`groundingMetadata`), and every citation it could not check.
#[wasm_bindgen(js_name = fromGeminiResponse)]
pub fn from_gemini_response(request: JsProviderJson, response: JsProviderJson, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    provider_import(evidence_check::import::gemini::from_gemini_response, request, response, options)
}

type Adapter = fn(&Value, &evidence_check::import::provider::ProviderOptions) -> Result<evidence_check::import::provider::ProviderImport, evidence_check::error::ContractError>;

fn adapter_import(adapter: Adapter, value: JsProviderJson, name: &str, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    let read = options_arg::<evidence_check::options::ProviderOptions>(Some(options.into()), Lang::default())?;
    let lang = read.lang_or(Lang::default());
    let core = read.provider_import().in_lang(lang)?;
    let value = json_value_arg(&value.into(), name, lang)?;
    typed(&adapter(&value, &core).in_lang(lang)?)
}

/// A bundle from a Vercel AI SDK `generateText` result: `source` parts whose
/// `providerMetadata` carries cited text, or Google's grounding metadata.
#[wasm_bindgen(js_name = fromVercelResult)]
pub fn from_vercel_result(result: JsProviderJson, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    adapter_import(evidence_check::import::adapters::from_vercel_result, result, "generateTextResult", options)
}

/// A bundle from a LangChain AI message with standard `citation` content blocks.
#[wasm_bindgen(js_name = fromLangChainMessage)]
pub fn from_langchain_message(message: JsProviderJson, options: JsProviderOptions) -> Result<JsProviderImport, JsValue> {
    adapter_import(evidence_check::import::adapters::from_langchain_message, message, "message", options)
}

/// Any known provider's request and response: `options.provider`, or detected from the
/// response's shape; an unknown shape is refused with `unknown_response_shape`.
#[wasm_bindgen(js_name = fromModelResponse)]
pub fn from_model_response(request: JsProviderJson, response: JsProviderJson, options: JsModelResponseOptions) -> Result<JsProviderImport, JsValue> {
    let read = options_arg::<evidence_check::options::ModelResponseOptions>(Some(options.into()), Lang::default())?;
    let lang = read.lang_or(Lang::default());
    let core = read.provider_import().in_lang(lang)?;
    let request = json_value_arg(&request.into(), "request", lang)?;
    let response = json_value_arg(&response.into(), "response", lang)?;
    typed(&evidence_check::import::from_model_response(&request, &response, read.provider.as_deref(), &core).in_lang(lang)?)
}
