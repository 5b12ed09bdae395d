//! A deterministic embedder without a model: hashed word and character-trigram features, L2-normalized.
//!
//! Texts that share words or word pieces get close vectors, which is enough for tests of everything
//! around the model (ranking stages, fusion, names, delivery, snapshots) to run in milliseconds and
//! give the same answer on every machine. It is not a semantic model: it knows no synonyms.

use sha2::{Digest, Sha256};

use super::Embedder;
use crate::Result;

/// Feature-hashing embedder (see the module docs). Its model id names its dimension.
#[derive(Debug, Clone)]
pub struct HashEmbedder {
    dim: usize,
    model_id: String,
}

impl HashEmbedder {
    /// An embedder of `dim` dimensions (at least 8).
    pub fn new(dim: usize) -> Self {
        let dim = dim.max(8);
        HashEmbedder { dim, model_id: format!("hash-embedder-{dim}@v1") }
    }

    fn vector(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; self.dim];
        let lower = text.to_lowercase();
        for word in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            self.add(&mut v, word.as_bytes(), 1.0);
            let padded: Vec<char> = format!("#{word}#").chars().collect();
            for gram in padded.windows(3) {
                self.add(&mut v, gram.iter().collect::<String>().as_bytes(), 0.3);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= norm);
        }
        v
    }

    fn add(&self, v: &mut [f32], feature: &[u8], weight: f32) {
        let digest = Sha256::digest(feature);
        let bucket = u64::from_le_bytes(digest[..8].try_into().expect("a SHA-256 digest has 32 bytes"));
        let sign = if digest[8] & 1 == 0 { 1.0 } else { -1.0 };
        v[(bucket % self.dim as u64) as usize] += sign * weight;
    }
}

impl Embedder for HashEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn embed_documents(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.vector(t)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cosine;

    #[test]
    fn deterministic_normalized_and_closer_for_shared_words() {
        let e = HashEmbedder::new(128);
        let texts = ["send an email".to_string(), "send a message".to_string(), "weather forecast".to_string()];
        let v = e.embed_documents(&texts).expect("embed");
        assert_eq!(v, e.embed_documents(&texts).expect("embed again"));
        assert!(v.iter().all(|x| x.len() == 128 && (x.iter().map(|a| a * a).sum::<f32>() - 1.0).abs() < 1e-5));
        assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]));
        assert_eq!(e.embed_query("send an email").expect("query"), v[0]);
        assert_eq!(e.model_id(), "hash-embedder-128@v1");
    }
}
