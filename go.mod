module github.com/tapparena/tapp

go 1.26.8
