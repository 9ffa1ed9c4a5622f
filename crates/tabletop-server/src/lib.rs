#![doc = include_str!("../README.md")]

pub mod accounts;
mod bots;
mod cluster;
pub mod config;
pub mod dice;
mod forward;
pub mod games;
mod hub;
pub mod identity;
pub mod loadtest;
pub mod protocol;
mod room;
mod server;
mod session;
mod store;
pub mod web;

pub use config::Config;
pub use server::{Server, StartError};
pub use store::StoreError;
pub use web::WebApp;
