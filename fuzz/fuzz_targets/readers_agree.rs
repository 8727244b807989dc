//! Any bytes through both paths of the strict reader: the fast path (text straight into
//! the contract types) accepts exactly what the tree reader accepts, with an equal value,
//! and every reader returns the tree reader's result, errors included. The first byte
//! picks the policy; the rest is read as a report (both dialects), a bundle (with and
//! without contents) and a list of reviews.
#![no_main]
use evidence_check::bundle::{bundle_without_contents, bundle_without_contents_tree, Bundle};
use evidence_check::contract::json::DEFAULT_MAX_INPUT_BYTES;
use evidence_check::contract::typed::{self, How};
use evidence_check::contract::Limits;
use evidence_check::policy::Policy;
use evidence_check::review::{reviews_from_json, reviews_from_json_tree};
use evidence_check::schema::Dialect;
use evidence_check::{Contract, ContractError, Report};
use libfuzzer_sys::fuzz_target;

fn agree<T: PartialEq + std::fmt::Debug>(fast: Option<T>, tree: Result<T, ContractError>, used: Result<T, ContractError>) {
    match (&fast, &tree) {
        (Some(f), Ok(t)) => assert_eq!(f, t, "the two readers give different values"),
        (None, Err(_)) => {}
        (Some(_), Err(e)) => panic!("the fast path accepts what the tree reader refuses: {e:?}"),
        (None, Ok(_)) => panic!("the fast path refuses what the tree reader accepts"),
    }
    assert_eq!(used, tree, "the reader's result is not the tree reader's");
}

fn typed_contract<T: Contract + PartialEq + std::fmt::Debug>(text: &str, limits: &Limits) {
    agree(T::from_json_typed(text, limits, How::contract(limits)), T::from_json_tree(text, limits), T::from_json_with(text, limits));
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let limits = match pick % 3 {
        0 => Policy::reference(),
        1 => Policy::documents(),
        _ => Policy::reference().with_reference_messages(true),
    };
    typed_contract::<Report>(text, &limits);
    typed_contract::<Bundle>(text, &limits);
    let strict = How { nulls_absent: true, ..How::plain(limits.max_input_bytes) };
    agree(typed::read(text, &limits, strict), Report::from_json_in_tree(text, Dialect::OpenAiStrict, &limits), Report::from_json_in(text, Dialect::OpenAiStrict, &limits));
    let loose = How { content_optional: true, ..How::plain(limits.max_input_bytes) };
    agree(typed::read(text, &limits, loose), bundle_without_contents_tree(text, &limits), bundle_without_contents(text, &limits));
    let plain = How::plain(DEFAULT_MAX_INPUT_BYTES);
    agree(typed::read_list(text, &Limits::default(), plain, true), reviews_from_json_tree(text, DEFAULT_MAX_INPUT_BYTES), reviews_from_json(text, DEFAULT_MAX_INPUT_BYTES));
});
