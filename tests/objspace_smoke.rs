use rpy_lsp::objspace::object::Value;
use rpy_lsp::objspace::{LoaderConfig, ObjSpace};
use std::path::PathBuf;

fn run(src: &str) -> ObjSpace {
    let mut config = LoaderConfig::default();
    let path = PathBuf::from("/virtual/prog/main.py");
    config.overlays.insert(path.clone(), src.to_string());
    let mut space = ObjSpace::new(config);
    let _ = space.import_main(&path);
    space
}

#[test]
fn smoke() {
    let sp = run("x = 1 + 2\nprint 'hello', x\n");
    eprintln!("{:?}", sp.diagnostics);
    assert_eq!(sp.stdout, "hello 3\n");
    let m = sp.main_module.unwrap();
    assert_eq!(sp.module_attr(m, "x"), Some(Value::Int(3)));
}
