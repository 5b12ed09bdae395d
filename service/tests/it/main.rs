//! Integration tests of the engine and the REST API over an index of real MCP servers (the committed
//! crawl in `data/catalog/reference-servers.jsonl`), built with the real embedding model.

mod duplicates;
mod engine;
mod golden;
mod hostile;
mod openapi;
mod pins;
mod policy;
mod reload;
mod respelled;
mod rest;
mod scripts;
mod slow_clients;
mod support;
mod vendor_types;
