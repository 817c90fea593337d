module jobmodel/harness/gosort

go 1.23
