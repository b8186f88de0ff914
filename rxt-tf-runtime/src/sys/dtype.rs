//! The names of TensorFlow's `TF_DataType` codes, for messages.

/// The Python name of a `TF_DataType`.
pub fn dtype_name(code: i32) -> String {
    let name = match code {
        1 => "float32",
        2 => "float64",
        3 => "int32",
        4 => "uint8",
        5 => "int16",
        6 => "int8",
        7 => "string",
        8 => "complex64",
        9 => "int64",
        10 => "bool",
        11 => "qint8",
        12 => "quint8",
        13 => "qint32",
        14 => "bfloat16",
        15 => "qint16",
        16 => "quint16",
        17 => "uint16",
        18 => "complex128",
        19 => "float16",
        20 => "resource",
        21 => "variant",
        22 => "uint32",
        23 => "uint64",
        _ => return format!("dtype code {code}"),
    };
    name.to_owned()
}
