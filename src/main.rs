fn main() {
    std::process::exit(rpy_lsp::cli::main());
}
