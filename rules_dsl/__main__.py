from rules_dsl.cli import main

raise SystemExit(main())
