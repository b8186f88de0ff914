//! Element types and tensor types.

/// An element type, with its `TF_DataType` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// `float32` (`TF_FLOAT`).
    F32,
    /// `float64` (`TF_DOUBLE`).
    F64,
    /// `bfloat16` (`TF_BFLOAT16`): Rust's `half::bf16`.
    BF16,
    /// `float16` (`TF_HALF`): Rust's `half::f16`.
    F16,
    /// `int32` (`TF_INT32`).
    I32,
    /// `int64` (`TF_INT64`).
    I64,
    /// `bool` (`TF_BOOL`).
    Bool,
}

/// The element types of an index operand (`gather`'s indices, `one_hot`'s).
pub const INDEX_DTYPES: &[DType] = &[DType::I32, DType::I64];

impl DType {
    /// The `TF_DataType` code.
    #[inline]
    pub const fn code(self) -> i32 {
        match self {
            DType::F32 => 1,
            DType::F64 => 2,
            DType::BF16 => 14,
            DType::F16 => 19,
            DType::I32 => 3,
            DType::I64 => 9,
            DType::Bool => 10,
        }
    }

    /// The element type of a `TF_DataType` code, if rxt-tf has it.
    #[inline]
    pub const fn from_code(code: i32) -> Option<DType> {
        match code {
            1 => Some(DType::F32),
            2 => Some(DType::F64),
            14 => Some(DType::BF16),
            19 => Some(DType::F16),
            3 => Some(DType::I32),
            9 => Some(DType::I64),
            10 => Some(DType::Bool),
            _ => None,
        }
    }

    /// TensorFlow's name for it (`float32`, …).
    pub const fn name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::BF16 => "bfloat16",
            DType::F16 => "float16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::Bool => "bool",
        }
    }

    /// The Rust type of its elements (`f32`, `i32`, `bf16`), as users
    /// write it: the half types are `half`'s, re-exported by rxt-tf.
    pub const fn rust_name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::BF16 => "bf16",
            DType::F16 => "f16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::Bool => "bool",
        }
    }

    /// The element type whose Rust type is `name`.
    pub fn from_rust_name(name: &str) -> Option<DType> {
        DType::ALL
            .iter()
            .copied()
            .find(|dtype| dtype.rust_name() == name)
    }

    /// The infix of the rxt-tf tensor type names (`F32` in `TensorF32Cpu2D`).
    pub const fn type_infix(self) -> &'static str {
        match self {
            DType::F32 => "F32",
            DType::F64 => "F64",
            DType::BF16 => "Bf16",
            DType::F16 => "F16",
            DType::I32 => "I32",
            DType::I64 => "I64",
            DType::Bool => "Bool",
        }
    }

    /// The size of one element, in bytes.
    #[inline]
    pub const fn size(self) -> usize {
        match self {
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 => 8,
            DType::BF16 | DType::F16 => 2,
            DType::Bool => 1,
        }
    }

    /// Whether it is a floating-point type.
    #[inline]
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64 | DType::BF16 | DType::F16)
    }

    /// The least and greatest values of an integer type (`None` for the
    /// others): what an int beside a tensor of it may be.
    #[inline]
    pub const fn int_bounds(self) -> Option<(i64, i64)> {
        match self {
            DType::I32 => Some((i32::MIN as i64, i32::MAX as i64)),
            DType::I64 => Some((i64::MIN, i64::MAX)),
            _ => None,
        }
    }

    /// Whether Rust has it as a primitive type (`f32`, `bool`, …; not the
    /// half types, which are library types).
    #[inline]
    pub const fn is_primitive(self) -> bool {
        !matches!(self, DType::BF16 | DType::F16)
    }
}

impl DType {
    /// Every element type of rxt-tf, in the order tables list them.
    pub const ALL: &'static [DType] = &[
        DType::F32,
        DType::F64,
        DType::BF16,
        DType::F16,
        DType::I32,
        DType::I64,
        DType::Bool,
    ];
}

/// The largest rank of an rxt-tf tensor (ranks are `0..=MAX_RANK`).
pub const MAX_RANK: u8 = 5;

/// A tensor type of rxt-tf: element type and rank, on `CPU:0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorKind {
    /// Element type.
    pub dtype: DType,
    /// Rank (`0..=MAX_RANK`).
    pub rank: u8,
}

impl TensorKind {
    /// Every tensor type of rxt-tf: each element type at each rank.
    pub fn all() -> Vec<TensorKind> {
        DType::ALL
            .iter()
            .flat_map(|&dtype| (0..=MAX_RANK).map(move |rank| TensorKind { dtype, rank }))
            .collect()
    }

    /// The Rust type name, e.g. `TensorF32Cpu2D`.
    pub fn type_name(self) -> String {
        format!("Tensor{}Cpu{}D", self.dtype.type_infix(), self.rank)
    }
}
