#![deny(missing_docs)]

//! The reference side of every comparison: a Direct3D 11 interpreter over decoded DXBC
//! ([`interp`]), the D3D rule functions it is built from ([`rules`]), the domain events that let
//! the oracle attribute a difference to a catalog entry ([`domain`]), the adaptation catalog
//! itself ([`catalog`]), and the `dxdiff-case/1` format with its replay ([`case`], [`replay`]).

pub mod band;
pub mod case;
pub mod catalog;
pub mod domain;
pub mod interp;
pub mod replay;
pub mod rules;
pub mod verdict;
