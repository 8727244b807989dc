//! The provider importers: Bedrock Converse, OpenAI Responses, Gemini / Vertex, and
//! `fromModelResponse`, which picks one by the response's shape. Each reads its options
//! and arguments, calls one core function and converts the result.

use crate::*;

type Importer = fn(&Value, &Value, &evidence_check::import::provider::ProviderOptions) -> Result<evidence_check::import::provider::ProviderImport, evidence_check::error::ContractError>;

/// A provider importer's options read as `T` (no options at all read as every default:
/// the core refuses the missing scope), their language and the core's options.
fn provider_setting<T: evidence_check::options::Options>(options: JsValue) -> Result<(CallOptions, Lang, evidence_check::import::provider::ProviderOptions), JsValue> {
    let read = options_arg::<T>(Some(options), default_lang())?;
    let lang = read.lang();
    let core = read.provider_import().in_lang(lang)?;
    Ok((read, lang, core))
}

/// A request and its response, each JSON text or a value, read in that order.
pub(crate) fn exchange_args(request: &JsValue, response: &JsValue, lang: Lang) -> Result<(Value, Value), JsValue> {
    Ok((json_value_arg(request, "request", lang)?, json_value_arg(response, "response", lang)?))
}

fn provider_import(importer: Importer, request: JsValue, response: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let (_, lang, core) = provider_setting::<evidence_check::options::ProviderOptions>(options)?;
    let (request, response) = exchange_args(&request, &response, lang)?;
    to_js(&importer(&request, &response, &core).in_lang(lang)?)
}

/// A bundle from a Bedrock Converse request and response (`citationsContent`), checked
/// against the host's snapshots, and every citation it could not check.
#[wasm_bindgen(js_name = fromBedrockResponse, unchecked_return_type = "ProviderImport")]
pub fn from_bedrock_response(#[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] response: JsValue, #[wasm_bindgen(unchecked_param_type = "ProviderOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    provider_import(evidence_check::import::bedrock::from_bedrock_response, request, response, options)
}

/// A bundle from an OpenAI Responses API request and response (`output_text` annotations
/// and `file_search_call.results`), and every citation it could not check.
#[wasm_bindgen(js_name = fromOpenAIResponse, unchecked_return_type = "ProviderImport")]
pub fn from_openai_response(#[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] response: JsValue, #[wasm_bindgen(unchecked_param_type = "ProviderOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    provider_import(evidence_check::import::openai::from_openai_response, request, response, options)
}

/// A bundle from a Gemini / Vertex generateContent request and response
/// (`groundingMetadata`), and every citation it could not check.
#[wasm_bindgen(js_name = fromGeminiResponse, unchecked_return_type = "ProviderImport")]
pub fn from_gemini_response(#[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] response: JsValue, #[wasm_bindgen(unchecked_param_type = "ProviderOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    provider_import(evidence_check::import::gemini::from_gemini_response, request, response, options)
}

type Adapter = fn(&Value, &evidence_check::import::provider::ProviderOptions) -> Result<evidence_check::import::provider::ProviderImport, evidence_check::error::ContractError>;

fn adapter_import(adapter: Adapter, value: JsValue, name: &str, options: JsValue) -> Result<JsValue, JsValue> {
    let (_, lang, core) = provider_setting::<evidence_check::options::ProviderOptions>(options)?;
    let value = json_value_arg(&value, name, lang)?;
    to_js(&adapter(&value, &core).in_lang(lang)?)
}

/// A bundle from a Vercel AI SDK `generateText` result: `source` parts whose
/// `providerMetadata` carries cited text, or Google's grounding metadata.
#[wasm_bindgen(js_name = fromVercelResult, unchecked_return_type = "ProviderImport")]
pub fn from_vercel_result(#[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] result: JsValue, #[wasm_bindgen(unchecked_param_type = "ProviderOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    adapter_import(evidence_check::import::adapters::from_vercel_result, result, "generateTextResult", options)
}

/// A bundle from a LangChain AI message with standard `citation` content blocks.
#[wasm_bindgen(js_name = fromLangChainMessage, unchecked_return_type = "ProviderImport")]
pub fn from_langchain_message(#[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] message: JsValue, #[wasm_bindgen(unchecked_param_type = "ProviderOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    adapter_import(evidence_check::import::adapters::from_langchain_message, message, "message", options)
}

/// Any known provider's request and response: `options.provider`, or detected from the
/// response's shape; an unknown shape is refused with `unknown_response_shape`.
#[wasm_bindgen(js_name = fromModelResponse, unchecked_return_type = "ProviderImport")]
pub fn from_model_response(#[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | string")] response: JsValue, #[wasm_bindgen(unchecked_param_type = "ModelResponseOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    let (read, lang, core) = provider_setting::<evidence_check::options::ModelResponseOptions>(options)?;
    let (request, response) = exchange_args(&request, &response, lang)?;
    to_js(&evidence_check::import::from_model_response(&request, &response, read.provider.as_deref(), &core).in_lang(lang)?)
}
