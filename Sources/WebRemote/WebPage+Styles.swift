extension WebPage {
    /// The page's and the login form's looks, served as `/page.css` (`style-src 'self'`), to anyone: the
    /// login form needs them before the token is given, and they say nothing of the session.
    static let pageStyles = """
    body{font:15px sans-serif;margin:0 auto;max-width:40em;padding:.5em}
    h1{font-size:1.2em;margin:.2em 0}
    #picture{display:block;width:100%;max-width:640px;aspect-ratio:16/9;background:#000}
    #state{font-weight:bold}#state.rec{color:#c00}
    table{border-collapse:collapse;width:100%}td{padding:.15em .3em;border-bottom:1px solid #ddd;vertical-align:top}
    td:first-child{color:#555;width:8em}
    .buttons{display:flex;flex-wrap:wrap;gap:.4em;margin:.6em 0}
    button{font:inherit;padding:.5em .8em;min-width:5em}
    #record{color:#c00;font-weight:bold}
    .meter{display:flex;align-items:center;gap:.5em;margin:.2em 0}.meter meter{flex:1;height:1.2em}.meter span{min-width:7em}
    .control{display:flex;align-items:center;gap:.5em;margin:.2em 0}.control label{width:10em}.control input[type=range]{flex:1}
    #error{color:#b00;min-height:1.2em}
    #log{font:12px monospace;white-space:pre-wrap;max-height:12em;overflow:auto;background:#f4f4f4;padding:.3em}
    body.login{font-size:16px;margin:2em auto;max-width:22em;padding:0 1em}
    .login input{font:inherit;width:100%;box-sizing:border-box;margin:.4em 0;padding:.4em}.note{color:#b00}
    """
}
