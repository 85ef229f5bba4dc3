// punct-gui page: the game review (graph, marks, better moves).
