//! The trace key: everything that decides a fused function's graph (the ops,
//! their keyword values, how their operands connect, the inputs' dtypes and
//! which nodes are outputs), and nothing that varies between calls of the
//! same code path (tensor data, shapes, scalar values).

use std::hash::{BuildHasherDefault, Hasher};

use rxt_tf_spec::{DType, Value};

use crate::eager::node::Arg;

/// One element of a trace key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Part {
    /// The context the trace runs on (its address: a context outlives
    /// every trace made on it).
    Context(usize),
    /// A node of the row at this address: each row is a static of the
    /// table or one made once and kept, so its address names it (rows of
    /// one name, such as a composite op's steps, run different ops).
    Op(usize),
    /// One of its keyword values.
    Keyword(KeyValue),
    /// A new input of this dtype (a `TF_DataType` code) and rank (inputs
    /// are numbered by first use); the ranks decide the kernels and
    /// permutations of the nodes.
    NewInput(i32, u8),
    /// A node calling the TensorFlow function of this number. Numbers are
    /// never reused, so only a batch holding the function (and so its
    /// definition) can look up a trace that calls it; a cached trace of a
    /// function let go of stays until evicted, never called.
    Function(u64),
    /// An operand: input `n`.
    Input(u32),
    /// An operand: constant `n` (its value is in the node's keywords).
    Constant(u32),
    /// An operand: the output of node `n`.
    Node(u32),
    /// The node moves its axis last and back.
    Swapped,
    /// Node `n` is an output of the call.
    Output(u32),
}

impl Part {
    /// The part naming an operand.
    pub(crate) fn of(arg: Arg) -> Part {
        match arg {
            Arg::Input(index) => Part::Input(index),
            Arg::Constant(index) => Part::Constant(index),
            Arg::Node(index) => Part::Node(index),
        }
    }
}

/// A keyword value, hashable (floats by their bits).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KeyValue {
    Bool(bool),
    Int(i64),
    Float(u64),
    Ints(&'static [i64]),
    Type(DType),
    Str(&'static str),
    /// A value given at run time, an input of the trace.
    GivenAtRunTime,
}

impl From<&Value> for KeyValue {
    fn from(value: &Value) -> KeyValue {
        match *value {
            Value::Bool(flag) => KeyValue::Bool(flag),
            Value::Int(int) => KeyValue::Int(int),
            Value::Float(float) => KeyValue::Float(float.to_bits()),
            Value::Ints(ints) => KeyValue::Ints(ints),
            Value::Type(dtype) => KeyValue::Type(dtype),
            Value::Str(text) => KeyValue::Str(text),
        }
    }
}

/// A fast, non-cryptographic hasher for trace keys (the keys are made by
/// this crate, never by an adversary).
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0_u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }

    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn write_i64(&mut self, word: i64) {
        self.write_u64(word as u64);
    }
}

/// The hasher of the trace cache.
pub(crate) type BuildKeyHasher = BuildHasherDefault<KeyHasher>;
