//! The real model behind its pool of sessions: every session gives the same vectors, concurrent callers
//! get their own texts' vectors back, and a request's intents embedded in parallel match the batch.

use std::sync::Arc;

use toolscout_indexer::{Embedder, EmbedderConfig, FastEmbedder};

fn pooled() -> FastEmbedder {
    let config =
        EmbedderConfig { sessions: 2, threads: 1, ..EmbedderConfig::installed(&toolscout_test_support::deps()) };
    FastEmbedder::load(&config).expect("embedding model (run scripts/setup-models.sh)")
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

const TEXTS: [&str; 4] = [
    "send a message to the team channel",
    "create an invoice for the customer and email it",
    "what is the weather in Lisbon tomorrow",
    "list the open pull requests of toolscout/toolscout that touch the indexer",
];

#[test]
fn sessions_agree_with_one_session_and_concurrent_callers_get_their_own_vectors() {
    let single = toolscout_test_support::embedder();
    let pool = Arc::new(pooled());
    assert_eq!(pool.sessions(), 2);
    assert_eq!(pool.model_id(), single.model_id(), "the same model, whatever the pool");
    let expected: Vec<Vec<f32>> = TEXTS.iter().map(|t| single.embed_query(t).expect("embeds")).collect();
    // Four threads × 25 calls on two sessions: each call must get its own text's vector.
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let pool = pool.clone();
            let expected = expected[i].clone();
            std::thread::spawn(move || {
                for _ in 0..25 {
                    let v = pool.embed_query(TEXTS[i]).expect("embeds");
                    assert!(cosine(&v, &expected) > 0.999, "text {i} got another vector");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("caller");
    }
    // The texts are different enough that a mix-up would show.
    assert!(cosine(&expected[0], &expected[2]) < 0.9);
}

#[test]
fn intents_embedded_in_parallel_match_the_batch_in_order() {
    let pool = pooled();
    let texts: Vec<String> = TEXTS.iter().map(|t| t.to_string()).collect();
    let parallel = pool.embed_queries(&texts).expect("embeds");
    let batch = pool.embed_documents(&texts).expect("embeds");
    assert_eq!(parallel.len(), texts.len());
    for (i, (p, b)) in parallel.iter().zip(&batch).enumerate() {
        assert!(cosine(p, b) > 0.999, "intent {i}: parallel and batched vectors differ");
    }
}
